//
//  SelectCityIntent.swift
//  CityWeather
//
//  Xcode generates this class from CityWeather.intentdefinition (one parameter, "city", a
//  string with the cities as suggestions). Written out as Xcode generates it, with its
//  `@NSManaged` property declared by `@Parameter` — the one change an IntentConfiguration
//  widget needs (docs/porting.md, "IntentConfiguration").
//

import Intents
import AppIntents

public class SelectCityIntent: INIntent {
    @Parameter(title: "City") public var city: String?
}
