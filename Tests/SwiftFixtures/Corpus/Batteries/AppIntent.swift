//
//  AppIntent.swift
//  Batteries
//

import WidgetKit
import AppIntents

struct BatteriesConfigurationIntent: WidgetConfigurationIntent {
    static var title: LocalizedStringResource = "Batteries"
    static var description = IntentDescription("The charge of your devices.")

    @Parameter(title: "Show percentages", default: true)
    var showsPercentage: Bool
}
