//
//  PlantCareWidget.swift
//  PlantCare
//
//  Colours from the asset catalogue (each with a dark variant), the plant picture from an image
//  set, and every string from Localizable.strings (English and German).
//

import WidgetKit
import SwiftUI

struct PlantEntry: TimelineEntry {
    let date: Date
    let plants: [Plant]
}

struct Provider: TimelineProvider {
    func placeholder(in context: Context) -> PlantEntry {
        PlantEntry(date: Date(), plants: Garden.shared.plants)
    }

    func getSnapshot(in context: Context, completion: @escaping (PlantEntry) -> ()) {
        completion(PlantEntry(date: Date(), plants: Garden.shared.plants))
    }

    func getTimeline(in context: Context, completion: @escaping (Timeline<PlantEntry>) -> ()) {
        let entry = PlantEntry(date: Date(), plants: Garden.shared.plants)
        let tomorrow = Calendar.current.startOfDay(for: Calendar.current.date(byAdding: .day, value: 1, to: Date())!)
        completion(Timeline(entries: [entry], policy: .after(tomorrow)))
    }
}

struct PlantRow: View {
    let plant: Plant
    let now: Date

    var body: some View {
        let days = plant.daysUntilWater(from: now)
        HStack(spacing: 8) {
            Image(systemName: days <= 0 ? "drop.fill" : "leaf")
                .foregroundStyle(days <= 0 ? Color("Thirsty") : Color("LeafGreen"))
                .frame(width: 16)
            Text(plant.name)
                .font(.subheadline.weight(.medium))
            Spacer()
            Group {
                if days <= 0 {
                    Text("Water today")
                        .foregroundStyle(Color("Thirsty"))
                } else if days == 1 {
                    Text("Tomorrow")
                } else {
                    Text("In \(days) days")
                }
            }
            .font(.caption)
            .foregroundStyle(.secondary)
        }
    }
}

struct PlantCareEntryView: View {
    var entry: Provider.Entry
    @Environment(\.widgetFamily) var family
    @Environment(\.colorScheme) var colorScheme

    private var thirsty: [Plant] { entry.plants.filter { $0.daysUntilWater(from: entry.date) <= 0 } }

    var body: some View {
        switch family {
        case .systemSmall:
            VStack(alignment: .leading, spacing: 6) {
                Image("Monstera")
                    .resizable()
                    .scaledToFit()
                    .frame(width: 44, height: 44)
                Spacer(minLength: 0)
                if let plant = thirsty.first {
                    Text(plant.name)
                        .font(.headline)
                    Text("Water today")
                        .font(.caption.bold())
                        .foregroundStyle(Color("Thirsty"))
                } else {
                    Text("All watered")
                        .font(.headline)
                        .foregroundStyle(Color("LeafGreen"))
                }
            }
            .frame(maxWidth: .infinity, alignment: .leading)
        default:
            HStack(alignment: .top, spacing: 12) {
                Image("Monstera")
                    .resizable()
                    .scaledToFit()
                    .frame(width: 56, height: 56)
                    .padding(6)
                    .background(Circle().fill(Color("LeafGreen").opacity(colorScheme == .dark ? 0.25 : 0.15)))
                VStack(alignment: .leading, spacing: 6) {
                    Text("My Plants")
                        .font(.headline)
                        .foregroundStyle(Color("LeafGreen"))
                    ForEach(entry.plants) { plant in
                        PlantRow(plant: plant, now: entry.date)
                    }
                }
            }
        }
    }
}

struct PlantCareWidget: Widget {
    let kind: String = "PlantCareWidget"

    var body: some WidgetConfiguration {
        StaticConfiguration(kind: kind, provider: Provider()) { entry in
            PlantCareEntryView(entry: entry)
                .containerBackground(Color("WidgetBackground"), for: .widget)
        }
        .configurationDisplayName("Plant Care")
        .description("Know which plant is thirsty.")
        .supportedFamilies([.systemSmall, .systemMedium])
    }
}

#Preview(as: .systemMedium) {
    PlantCareWidget()
} timeline: {
    PlantEntry(date: .now, plants: Garden.shared.plants)
}
