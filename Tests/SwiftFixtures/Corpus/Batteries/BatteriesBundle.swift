//
//  BatteriesBundle.swift
//  Batteries
//

import WidgetKit
import SwiftUI

@main
struct BatteriesBundle: WidgetBundle {
    var body: some Widget {
        BatteriesWidget()
    }
}
