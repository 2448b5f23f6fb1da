//
//  StepCountBundle.swift
//  StepCount
//

import WidgetKit
import SwiftUI

@main
struct StepCountBundle: WidgetBundle {
    var body: some Widget {
        StepsWidget()
        StepsLockScreenWidget()
    }
}
