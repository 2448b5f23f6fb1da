//
//  StepsWidget.swift
//  StepCount
//

import WidgetKit
import SwiftUI

struct StepsWidgetView: View {
    var entry: StepsEntry

    var body: some View {
        VStack(alignment: .leading, spacing: 4) {
            Label("Steps", systemImage: "figure.walk")
                .font(.caption.weight(.semibold))
                .foregroundStyle(.green)
            Spacer()
            Text(entry.steps, format: .number)
                .font(.system(size: 34, weight: .bold, design: .rounded))
                .minimumScaleFactor(0.5)
            Text(String(format: "%.1f km", entry.distanceKm))
                .font(.footnote)
                .foregroundStyle(.secondary)
            Gauge(value: entry.progress) {
                Text("Goal")
            }
            .gaugeStyle(.linearCapacity)
            .tint(.green)
        }
    }
}

struct StepsWidget: Widget {
    let kind: String = "StepsWidget"

    var body: some WidgetConfiguration {
        AppIntentConfiguration(kind: kind, intent: StepGoalIntent.self, provider: StepsProvider()) { entry in
            StepsWidgetView(entry: entry)
                .containerBackground(.fill.tertiary, for: .widget)
        }
        .configurationDisplayName("Steps")
        .description("Today's steps towards your goal.")
        .supportedFamilies([.systemSmall])
    }
}
