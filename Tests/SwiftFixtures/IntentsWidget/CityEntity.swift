//
//  CityEntity.swift
//  IntentsWidget
//
//  An `AppEntity` parameter: the picker offers the query's suggested cities.
//

import AppIntents

struct CityEntity: AppEntity {
    let id: String
    let name: String
    let utcOffset: Int

    static var typeDisplayRepresentation: TypeDisplayRepresentation = "City"
    static var defaultQuery = CityQuery()

    var displayRepresentation: DisplayRepresentation {
        DisplayRepresentation(title: "\(name)")
    }

    static let all = [
        CityEntity(id: "berlin", name: "Berlin", utcOffset: 1),
        CityEntity(id: "lisbon", name: "Lisbon", utcOffset: 0),
        CityEntity(id: "tokyo", name: "Tokyo", utcOffset: 9),
        // Known to the query, never suggested: a picker does not offer it.
        CityEntity(id: "atlantis", name: "Atlantis", utcOffset: -3),
    ]
}

struct CityQuery: EntityQuery {
    func entities(for identifiers: [CityEntity.ID]) async throws -> [CityEntity] {
        CityEntity.all.filter { identifiers.contains($0.id) }
    }

    func suggestedEntities() async throws -> [CityEntity] {
        CityEntity.all.filter { $0.id != "atlantis" }
    }

    func defaultResult() async -> CityEntity? {
        CityEntity.all.first { $0.id == "lisbon" }
    }
}

extension CityQuery: EntityStringQuery {
    func entities(matching string: String) async throws -> [CityEntity] {
        CityEntity.all.filter { $0.name.localizedCaseInsensitiveContains(string) }
    }
}

struct SelectCityIntent: WidgetConfigurationIntent {
    static var title: LocalizedStringResource = "Select City"
    static var description = IntentDescription("The city whose time difference to show.")

    @Parameter(title: "City")
    var city: CityEntity?
}
