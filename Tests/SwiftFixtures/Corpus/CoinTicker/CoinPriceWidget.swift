//
//  CoinPriceWidget.swift
//  CoinTicker
//

import WidgetKit
import SwiftUI

struct CoinEntry: TimelineEntry {
    let date: Date
    let coin: CoinEntity
    let currency: String
    let history: [PricePoint]

    var price: Double { history.last?.price ?? 0 }
    var change: Double {
        guard let first = history.first?.price, first > 0 else { return 0 }
        return (price - first) / first
    }
}

struct Provider: AppIntentTimelineProvider {
    func placeholder(in context: Context) -> CoinEntry {
        let coin = CoinEntity.all[0]
        return CoinEntry(date: Date(), coin: coin, currency: "USD", history: PriceHistory.lastDay(of: coin.id))
    }

    func snapshot(for configuration: SelectCoinIntent, in context: Context) async -> CoinEntry {
        entry(for: configuration)
    }

    func timeline(for configuration: SelectCoinIntent, in context: Context) async -> Timeline<CoinEntry> {
        Timeline(entries: [entry(for: configuration)], policy: .after(Date().addingTimeInterval(15 * 60)))
    }

    private func entry(for configuration: SelectCoinIntent) -> CoinEntry {
        let coin = configuration.coin ?? CoinEntity.all[0]
        return CoinEntry(date: Date(), coin: coin, currency: configuration.currency, history: PriceHistory.lastDay(of: coin.id))
    }
}

/// A day of prices as thin bars, scaled between the day's low and high.
struct SparkBars: View {
    let history: [PricePoint]
    let color: Color

    var body: some View {
        let prices = history.map(\.price)
        let low = prices.min() ?? 0, high = prices.max() ?? 1
        HStack(alignment: .bottom, spacing: 2) {
            ForEach(history) { point in
                Rectangle()
                    .fill(color.opacity(point.hour == history.count - 1 ? 1 : 0.55))
                    .frame(height: 6 + 34 * (high > low ? (point.price - low) / (high - low) : 0.5))
            }
        }
        .frame(height: 40, alignment: .bottom)
    }
}

struct CoinPriceEntryView: View {
    var entry: Provider.Entry
    @Environment(\.widgetFamily) var family

    private var trendColor: Color { entry.change >= 0 ? .green : .red }

    var body: some View {
        VStack(alignment: .leading, spacing: 4) {
            HStack {
                Text(entry.coin.ticker)
                    .font(.headline)
                if family != .systemSmall {
                    Text(entry.coin.name)
                        .font(.subheadline)
                        .foregroundStyle(.secondary)
                }
                Spacer()
                Image(systemName: entry.change >= 0 ? "arrow.up.right" : "arrow.down.right")
                    .foregroundStyle(trendColor)
            }
            Text(entry.price, format: .currency(code: entry.currency))
                .font(.title2.bold())
                .minimumScaleFactor(0.6)
                .lineLimit(1)
            Text(entry.change, format: .percent.precision(.fractionLength(2)))
                .font(.caption.bold())
                .foregroundStyle(trendColor)
            Spacer(minLength: 0)
            SparkBars(history: entry.history, color: trendColor)
        }
    }
}

struct CoinPriceWidget: Widget {
    let kind: String = "CoinPriceWidget"

    var body: some WidgetConfiguration {
        AppIntentConfiguration(kind: kind, intent: SelectCoinIntent.self, provider: Provider()) { entry in
            CoinPriceEntryView(entry: entry)
                .containerBackground(.fill.tertiary, for: .widget)
        }
        .configurationDisplayName("Coin Price")
        .description("A coin's price and its last 24 hours.")
        .supportedFamilies([.systemSmall, .systemMedium])
    }
}
