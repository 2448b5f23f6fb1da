//
//  MonthCalendarBundle.swift
//  MonthCalendar
//

import WidgetKit
import SwiftUI

@main
struct MonthCalendarBundle: WidgetBundle {
    var body: some Widget {
        MonthCalendarWidget()
    }
}
