//
//  WeatherIntent.swift
//  IntentsWidget
//
//  On iOS Xcode generates this class from Weather.intentdefinition. Here it is written out as
//  Xcode generates it, with `@NSManaged` replaced by `@Parameter` (docs/porting.md,
//  "IntentConfiguration"), and the definition's enum declared as an `AppEnum`.
//

import Intents
import AppIntents

public enum TemperatureUnit: String, AppEnum {
    case celsius, fahrenheit

    public static var typeDisplayRepresentation: TypeDisplayRepresentation = "Unit"
    public static var caseDisplayRepresentations: [TemperatureUnit: DisplayRepresentation] = [
        .celsius: "Celsius",
        .fahrenheit: "Fahrenheit",
    ]
}

public class WeatherIntent: INIntent {
    @Parameter(title: "Location") public var location: String?
    @Parameter(title: "Show Feels Like") public var showFeelsLike: Bool?
    @Parameter public var unit: TemperatureUnit?
}
