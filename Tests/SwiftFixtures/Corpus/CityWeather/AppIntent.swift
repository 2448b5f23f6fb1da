//
//  AppIntent.swift
//  CityWeather
//
//  The refresh button the widget gained with iOS 17; the city is still chosen by the SiriKit
//  intent of the .intentdefinition (SelectCityIntent).
//

import WidgetKit
import AppIntents

struct RefreshForecastIntent: AppIntent {
    static var title: LocalizedStringResource = "Refresh Forecast"

    func perform() async throws -> some IntentResult {
        WidgetCenter.shared.reloadTimelines(ofKind: "CityWeatherWidget")
        return .result()
    }
}
