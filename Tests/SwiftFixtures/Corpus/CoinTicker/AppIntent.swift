//
//  AppIntent.swift
//  CoinTicker
//
//  The coin is an app entity: the widget's edit sheet lists what `CoinQuery` suggests.
//

import WidgetKit
import AppIntents

struct CoinEntity: AppEntity {
    let id: String
    let name: String
    let ticker: String

    static var typeDisplayRepresentation: TypeDisplayRepresentation = "Coin"
    static var defaultQuery = CoinQuery()

    var displayRepresentation: DisplayRepresentation {
        DisplayRepresentation(title: "\(name)", subtitle: "\(ticker)")
    }

    static let all: [CoinEntity] = [
        CoinEntity(id: "bitcoin", name: "Bitcoin", ticker: "BTC"),
        CoinEntity(id: "ethereum", name: "Ethereum", ticker: "ETH"),
        CoinEntity(id: "solana", name: "Solana", ticker: "SOL"),
        CoinEntity(id: "cardano", name: "Cardano", ticker: "ADA"),
    ]
}

struct CoinQuery: EntityQuery {
    func entities(for identifiers: [CoinEntity.ID]) async throws -> [CoinEntity] {
        CoinEntity.all.filter { identifiers.contains($0.id) }
    }

    func suggestedEntities() async throws -> [CoinEntity] {
        CoinEntity.all
    }

    func defaultResult() async -> CoinEntity? {
        CoinEntity.all.first
    }
}

struct SelectCoinIntent: WidgetConfigurationIntent {
    static var title: LocalizedStringResource = "Select Coin"
    static var description = IntentDescription("Pick the coin the widget follows.")

    @Parameter(title: "Coin")
    var coin: CoinEntity?

    @Parameter(title: "Currency", default: "USD")
    var currency: String
}
