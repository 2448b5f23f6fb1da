//
//  AppIntent.swift
//  MonthCalendar
//

import WidgetKit
import AppIntents

struct CalendarConfigurationIntent: WidgetConfigurationIntent {
    static var title: LocalizedStringResource = "Month"
    static var description = IntentDescription("This month at a glance.")

    @Parameter(title: "Week starts on Monday", default: true)
    var startsOnMonday: Bool
}
