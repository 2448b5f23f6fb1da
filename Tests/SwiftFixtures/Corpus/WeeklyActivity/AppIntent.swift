//
//  AppIntent.swift
//  WeeklyActivity
//

import WidgetKit
import AppIntents

enum ActivityMetric: String, AppEnum {
    case move, exercise, stand

    static var typeDisplayRepresentation: TypeDisplayRepresentation = "Metric"
    static var caseDisplayRepresentations: [ActivityMetric: DisplayRepresentation] = [
        .move: "Move",
        .exercise: "Exercise",
        .stand: "Stand",
    ]
}

struct ChartConfigurationIntent: WidgetConfigurationIntent {
    static var title: LocalizedStringResource = "Weekly Chart"
    static var description = IntentDescription("Shows one ring's last seven days as bars.")

    @Parameter(title: "Metric", default: .move)
    var metric: ActivityMetric
}
