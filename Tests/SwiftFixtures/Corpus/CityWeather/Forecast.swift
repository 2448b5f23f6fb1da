//
//  Forecast.swift
//  CityWeather
//
//  The app downloads forecasts and leaves the latest for the widget; these are that cache's
//  contents for the cities the intent offers.
//

import Foundation

struct HourForecast: Identifiable {
    let date: Date
    let temperature: Int
    let symbol: String
    var id: Date { date }
}

struct CityForecast {
    let city: String
    let condition: String
    let symbol: String
    let temperature: Int
    let high: Int
    let low: Int
    let hours: [HourForecast]

    static func cached(for city: String, from now: Date) -> CityForecast {
        let start = Calendar.current.dateInterval(of: .hour, for: now)!.start
        func hours(_ temperatures: [Int], _ symbols: [String]) -> [HourForecast] {
            temperatures.enumerated().map { index, temperature in
                HourForecast(date: start.addingTimeInterval(Double(index) * 3600), temperature: temperature,
                             symbol: symbols[index % symbols.count])
            }
        }
        switch city {
        case "Oslo":
            return CityForecast(city: "Oslo", condition: "Snow", symbol: "cloud.snow.fill", temperature: -3, high: -1, low: -7,
                                hours: hours([-3, -3, -2, -2, -1, -2], ["cloud.snow.fill", "cloud.fill"]))
        case "Lisbon":
            return CityForecast(city: "Lisbon", condition: "Sunny", symbol: "sun.max.fill", temperature: 19, high: 22, low: 13,
                                hours: hours([19, 20, 21, 22, 21, 20], ["sun.max.fill"]))
        default:
            return CityForecast(city: "Berlin", condition: "Partly Cloudy", symbol: "cloud.sun.fill", temperature: 8, high: 11, low: 2,
                                hours: hours([8, 9, 10, 11, 10, 8], ["cloud.sun.fill", "cloud.fill", "cloud.rain.fill"]))
        }
    }
}
