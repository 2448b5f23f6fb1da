//
//  IntentsWidgetBundle.swift
//  IntentsWidget
//
//  An `IntentConfiguration` widget and an `AppIntentConfiguration` widget with an `AppEntity`
//  parameter, as written for iOS. Tests/IntegrationTests/IntentsBundleTests.swift drives it.
//

import WidgetKit
import SwiftUI

@main
struct IntentsWidgetBundle: WidgetBundle {
    var body: some Widget {
        WeatherWidget()
        CityWidget()
    }
}
