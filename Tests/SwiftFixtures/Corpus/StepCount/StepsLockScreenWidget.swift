//
//  StepsLockScreenWidget.swift
//  StepCount
//
//  The Lock Screen versions: a ring, a bar with the numbers, and one line above the clock.
//

import WidgetKit
import SwiftUI

struct StepsLockScreenView: View {
    var entry: StepsEntry
    @Environment(\.widgetFamily) private var family

    var body: some View {
        switch family {
        case .accessoryCircular:
            Gauge(value: Double(entry.steps), in: 0...Double(entry.goal)) {
                Image(systemName: "figure.walk")
            } currentValueLabel: {
                Text("\(entry.steps / 1000)k")
            }
            .gaugeStyle(.accessoryCircular)
            .widgetLabel {
                Text("\(Int(entry.progress * 100))% of goal")
            }
        case .accessoryRectangular:
            VStack(alignment: .leading, spacing: 2) {
                HStack {
                    Image(systemName: "figure.walk")
                    Text("Steps")
                        .font(.headline)
                        .widgetAccentable()
                }
                Text("\(entry.steps.formatted()) / \(entry.goal.formatted())")
                    .font(.caption)
                Gauge(value: entry.progress) {
                    EmptyView()
                }
                .gaugeStyle(.accessoryLinearCapacity)
            }
        case .accessoryInline:
            ViewThatFits {
                Label("\(entry.steps.formatted()) steps · \(String(format: "%.1f", entry.distanceKm)) km", systemImage: "figure.walk")
                Label("\(entry.steps.formatted()) steps", systemImage: "figure.walk")
            }
        default:
            StepsWidgetView(entry: entry)
        }
    }
}

struct StepsLockScreenWidget: Widget {
    let kind: String = "StepsLockScreenWidget"

    var body: some WidgetConfiguration {
        AppIntentConfiguration(kind: kind, intent: StepGoalIntent.self, provider: StepsProvider()) { entry in
            StepsLockScreenView(entry: entry)
                .containerBackground(.clear, for: .widget)
        }
        .configurationDisplayName("Steps")
        .description("Your steps on the Lock Screen.")
        .supportedFamilies([.accessoryCircular, .accessoryRectangular, .accessoryInline])
    }
}

#Preview(as: .accessoryRectangular) {
    StepsLockScreenWidget()
} timeline: {
    StepsEntry(date: .now, steps: 7_412, goal: 10_000, distanceKm: 5.3)
}
