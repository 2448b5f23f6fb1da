//
//  WeeklyActivityBundle.swift
//  WeeklyActivity
//

import WidgetKit
import SwiftUI

@main
struct WeeklyActivityBundle: WidgetBundle {
    var body: some Widget {
        ActivityRingsWidget()
        WeeklyChartWidget()
    }
}
