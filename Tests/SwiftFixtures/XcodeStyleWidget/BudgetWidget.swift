//
//  BudgetWidget.swift
//  XcodeStyleWidget
//
//  A month's budget, written as for iOS 17: Foundation's formatters and defaults through
//  `import WidgetKit`, and the modifiers and text forms real widgets use.
//

import WidgetKit
import SwiftUI
import UIKit

struct BudgetEntry: TimelineEntry {
    let date: Date
    let spent: Double
    let limit: Double
    let category: String
}

struct BudgetProvider: TimelineProvider {
    /// What the app would write into the shared defaults; registered, so a fresh machine has it.
    private var defaults: UserDefaults {
        let defaults = UserDefaults.standard
        defaults.register(defaults: ["spent": 1234.5, "limit": 2000.0, "category": "  Groceries & Rent  "])
        return defaults
    }

    private func entry(at date: Date) -> BudgetEntry {
        BudgetEntry(date: date,
                    spent: defaults.double(forKey: "spent"),
                    limit: defaults.double(forKey: "limit"),
                    category: (defaults.string(forKey: "category") ?? "").trimmingCharacters(in: .whitespaces))
    }

    func placeholder(in context: Context) -> BudgetEntry {
        BudgetEntry(date: Date(), spent: 0, limit: 2000, category: "Budget")
    }

    func getSnapshot(in context: Context, completion: @escaping (BudgetEntry) -> ()) {
        completion(entry(at: Date()))
    }

    func getTimeline(in context: Context, completion: @escaping (Timeline<BudgetEntry>) -> ()) {
        let timeline = Timeline(entries: [entry(at: Date())], policy: .after(Date().addingTimeInterval(3600)))
        completion(timeline)
    }
}

struct BudgetWidgetEntryView: View {
    var entry: BudgetProvider.Entry
    @Environment(\.widgetFamily) var family
    @Environment(\.dynamicTypeSize) var dynamicTypeSize

    private static let dayFormatter: DateFormatter = {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "EEE d MMM"
        return formatter
    }()

    private static let currencyFormatter: NumberFormatter = {
        let formatter = NumberFormatter()
        formatter.numberStyle = .currency
        formatter.locale = Locale(identifier: "en_US")
        return formatter
    }()

    private let barWidth: CGFloat = 110

    private var ratio: Double { entry.limit > 0 ? min(entry.spent / entry.limit, 1) : 0 }

    private var initials: String {
        entry.category.components(separatedBy: CharacterSet.alphanumerics.inverted)
            .compactMap { $0.first.map(String.init) }
            .joined()
    }

    var body: some View {
        VStack(alignment: .leading, spacing: 6) {
            HStack {
                Image(uiImage: UIImage(systemName: "creditcard.fill")!)
                    .renderingMode(.template)
                    .foregroundStyle(.orange)
                Text(LocalizedStringResource("Monthly budget"))
                    .font(.caption)
                    .fontWidth(.condensed)
                    .textCase(.uppercase)
                    .allowsTightening(true)
                Spacer()
                Text(initials)
                    .font(.caption2.bold())
                    .padding(4)
                    .background(Circle().fill(.orange.opacity(0.25)))
            }
            Text(Self.currencyFormatter.string(from: NSNumber(value: entry.spent)) ?? "")
                .font(.title2.bold())
                .minimumScaleFactor(0.6)
                .transition(.opacity)
            Text("\(ratio * 100, specifier: "%.0f")% of \(Self.currencyFormatter.string(from: NSNumber(value: entry.limit)) ?? "")")
                .font(.caption)
                .textScale(.secondary)
                .foregroundStyle(.secondary)
            Text("Rent · Groceries · Travel · Fuel · Fun")
                .font(.caption2)
                .fixedSize()
                .frame(width: barWidth, alignment: .leading)
                .clipped()
            Capsule()
                .fill(.quaternary)
                .frame(height: 8)
                .overlay(Capsule().fill(Color(uiColor: .systemOrange)).frame(width: barWidth * ratio), alignment: .leading)
            if family != .systemSmall {
                HStack {
                    Text("Was \(Self.currencyFormatter.string(from: NSNumber(value: entry.limit + 500)) ?? "")")
                    Text(NSLocalizedString("Budget", comment: "The widget's name"))
                }
                .font(.caption2)
                .strikethrough()
            }
            Spacer(minLength: 0)
            Text("Updated \(Self.dayFormatter.string(from: entry.date))", comment: "When the numbers were read")
                .font(.caption2)
                .foregroundStyle(.tertiary)
                .accessibilityElement(children: .combine)
        }
        .dynamicTypeSize(...DynamicTypeSize.xxLarge)
        .ignoresSafeArea()
    }
}

struct BudgetWidget: Widget {
    let kind: String = "BudgetWidget"

    var body: some WidgetConfiguration {
        StaticConfiguration(kind: kind, provider: BudgetProvider()) { entry in
            BudgetWidgetEntryView(entry: entry)
                .containerBackground(Color(uiColor: .secondarySystemBackground), for: .widget)
        }
        .configurationDisplayName(Text("Budget"))
        .description(Text("What is left of this month's budget."))
        .supportedFamilies([.systemSmall, .systemMedium])
    }
}

struct BudgetWidget_Previews: PreviewProvider {
    static var previews: some View {
        BudgetWidgetEntryView(entry: BudgetEntry(date: .now, spent: 1234.5, limit: 2000, category: "Groceries & Rent"))
            .previewContext(WidgetPreviewContext(family: .systemMedium))
    }
}

#Preview(as: .systemMedium) {
    BudgetWidget()
} timeline: {
    BudgetEntry(date: .now, spent: 1900, limit: 2000, category: "Travel")
}
