//
//  AppIntent.swift
//  StepCount
//

import WidgetKit
import AppIntents

enum StepGoal: Int, AppEnum {
    case relaxed = 6000
    case standard = 10000
    case ambitious = 15000

    static var typeDisplayRepresentation: TypeDisplayRepresentation = "Daily Goal"
    static var caseDisplayRepresentations: [StepGoal: DisplayRepresentation] = [
        .relaxed: "6,000 steps",
        .standard: "10,000 steps",
        .ambitious: "15,000 steps",
    ]
}

struct StepGoalIntent: WidgetConfigurationIntent {
    static var title: LocalizedStringResource = "Step Goal"
    static var description = IntentDescription("Choose the goal the gauge fills up to.")

    @Parameter(title: "Goal", default: .standard)
    var goal: StepGoal
}
