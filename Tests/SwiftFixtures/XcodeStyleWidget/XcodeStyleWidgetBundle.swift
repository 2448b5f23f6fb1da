//
//  XcodeStyleWidgetBundle.swift
//  XcodeStyleWidget
//

import WidgetKit
import SwiftUI

@main
struct XcodeStyleWidgetBundle: WidgetBundle {
    var body: some Widget {
        XcodeStyleWidget()
        BudgetWidget()
    }
}
