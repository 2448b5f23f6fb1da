//
//  PlantCareBundle.swift
//  PlantCare
//

import WidgetKit
import SwiftUI

@main
struct PlantCareBundle: WidgetBundle {
    var body: some Widget {
        PlantCareWidget()
    }
}
