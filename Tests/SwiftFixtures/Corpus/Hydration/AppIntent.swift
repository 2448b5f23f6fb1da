//
//  AppIntent.swift
//  Hydration
//
//  The buttons and the toggle of the widget run these intents in the extension's process
//  (iOS 17 interactive widgets); the widget reloads after each.
//

import WidgetKit
import AppIntents

struct LogGlassIntent: AppIntent {
    static var title: LocalizedStringResource = "Log a glass of water"
    static var description = IntentDescription("Adds one glass to today's count.")

    @Parameter(title: "Glasses", default: 1)
    var glasses: Int

    init() {}

    init(glasses: Int) {
        self.glasses = glasses
    }

    func perform() async throws -> some IntentResult {
        WaterStore.shared.log(glasses: glasses)
        return .result()
    }
}

struct ToggleReminderIntent: AppIntent {
    static var title: LocalizedStringResource = "Hourly reminder"

    @Parameter(title: "Reminder on")
    var isOn: Bool

    init() {}

    init(isOn: Bool) {
        self.isOn = isOn
    }

    func perform() async throws -> some IntentResult {
        WaterStore.shared.remindersOn = isOn
        return .result()
    }
}
