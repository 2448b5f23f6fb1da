//
//  CityWeatherBundle.swift
//  CityWeather
//

import WidgetKit
import SwiftUI

@main
struct CityWeatherBundle: WidgetBundle {
    var body: some Widget {
        CityWeatherWidget()
    }
}
