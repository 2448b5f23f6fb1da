//
//  BatteriesWidget.swift
//  Batteries
//

import WidgetKit
import SwiftUI

struct BatteriesEntry: TimelineEntry {
    let date: Date
    let devices: [Device]
    let showsPercentage: Bool
}

struct Provider: AppIntentTimelineProvider {
    func placeholder(in context: Context) -> BatteriesEntry {
        BatteriesEntry(date: Date(), devices: Device.paired, showsPercentage: true)
    }

    func snapshot(for configuration: BatteriesConfigurationIntent, in context: Context) async -> BatteriesEntry {
        BatteriesEntry(date: Date(), devices: Device.paired, showsPercentage: configuration.showsPercentage)
    }

    func timeline(for configuration: BatteriesConfigurationIntent, in context: Context) async -> Timeline<BatteriesEntry> {
        let entry = BatteriesEntry(date: Date(), devices: Device.paired, showsPercentage: configuration.showsPercentage)
        return Timeline(entries: [entry], policy: .after(Date().addingTimeInterval(10 * 60)))
    }
}

struct DeviceGauge: View {
    let device: Device

    private var tint: Color {
        if device.isCharging { return .green }
        return device.isLow ? .red : .primary
    }

    var body: some View {
        Gauge(value: device.level) {
            Image(systemName: device.kind.symbol)
        }
        .gaugeStyle(.accessoryCircularCapacity)
        .tint(tint)
        .overlay(alignment: .topTrailing) {
            if device.isCharging {
                Image(systemName: "bolt.fill")
                    .font(.caption2)
                    .foregroundStyle(.green)
            }
        }
    }
}

struct BatteriesEntryView: View {
    var entry: Provider.Entry
    @Environment(\.widgetFamily) var family

    var body: some View {
        switch family {
        case .systemSmall:
            Grid(horizontalSpacing: 12, verticalSpacing: 12) {
                GridRow {
                    DeviceGauge(device: entry.devices[0])
                    DeviceGauge(device: entry.devices[1])
                }
                GridRow {
                    DeviceGauge(device: entry.devices[2])
                    DeviceGauge(device: entry.devices[3])
                }
            }
        case .systemMedium:
            VStack(spacing: 8) {
                HStack {
                    ForEach(entry.devices) { device in
                        DeviceGauge(device: device)
                            .frame(maxWidth: .infinity)
                    }
                }
                if entry.showsPercentage {
                    HStack {
                        ForEach(entry.devices) { device in
                            Text(device.level, format: .percent)
                                .font(.caption.monospacedDigit())
                                .foregroundStyle(device.isLow ? .red : .secondary)
                                .frame(maxWidth: .infinity)
                        }
                    }
                }
            }
        default:
            VStack(alignment: .leading, spacing: 10) {
                ForEach(entry.devices) { device in
                    HStack {
                        Label(device.name, systemImage: device.kind.symbol)
                            .font(.subheadline)
                        Spacer()
                        Text(device.level, format: .percent)
                            .font(.subheadline.monospacedDigit())
                    }
                    Gauge(value: device.level) {
                        EmptyView()
                    }
                    .gaugeStyle(.linearCapacity)
                    .tint(device.isLow ? .red : .green)
                }
                Spacer(minLength: 0)
            }
        }
    }
}

struct BatteriesWidget: Widget {
    let kind: String = "BatteriesWidget"

    var body: some WidgetConfiguration {
        AppIntentConfiguration(kind: kind, intent: BatteriesConfigurationIntent.self, provider: Provider()) { entry in
            BatteriesEntryView(entry: entry)
                .containerBackground(.fill.tertiary, for: .widget)
        }
        .configurationDisplayName("Batteries")
        .description("Keep an eye on your devices' charge.")
        .supportedFamilies([.systemSmall, .systemMedium, .systemLarge])
    }
}
