//
//  CoinTickerBundle.swift
//  CoinTicker
//

import WidgetKit
import SwiftUI

@main
struct CoinTickerBundle: WidgetBundle {
    var body: some Widget {
        CoinPriceWidget()
    }
}
