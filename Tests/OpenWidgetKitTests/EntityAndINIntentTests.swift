import FoundationEssentials
import Synchronization
import Testing
@testable import OpenWidgetKit

/// Ids the station query was asked for, in order (the provider must get entities from it).
private let askedStationIds = Mutex<[[Int]]>([])

private struct Station: AppEntity {
    let id: Int
    let name: String
    let line: String
    static let typeDisplayRepresentation: TypeDisplayRepresentation = "Station"
    static let defaultQuery = StationQuery()
    var displayRepresentation: DisplayRepresentation { DisplayRepresentation(title: "\(name)", subtitle: "\(line) line") }
    static let all = [Station(id: 7, name: "Alexanderplatz", line: "U2"), Station(id: 12, name: "Zoo", line: "U9"),
                      Station(id: 30, name: "Ostkreuz", line: "S8")]
}

private struct StationQuery: EnumerableEntityQuery {
    func allEntities() async throws -> [Station] { Station.all }
    func entities(for identifiers: [Int]) async throws -> [Station] {
        askedStationIds.withLock { $0.append(identifiers) }
        return Station.all.filter { identifiers.contains($0.id) }
    }
}

private struct StationIntent: WidgetConfigurationIntent {
    static let title: LocalizedStringResource = "Station"
    @Parameter(title: "Station") var station: Station
    @Parameter(title: "Via") var via: Station?
}

/// A query that returns more entities than a picker offers, with ids and titles over the limits.
private struct Crowd: AppEntity {
    let id: String
    let title: String
    static let typeDisplayRepresentation: TypeDisplayRepresentation = "Crowd"
    static let defaultQuery = CrowdQuery()
    var displayRepresentation: DisplayRepresentation { DisplayRepresentation(title: "\(title)") }
}

private struct CrowdQuery: EntityQuery {
    func entities(for identifiers: [String]) async throws -> [Crowd] { [] }
    func suggestedEntities() async throws -> [Crowd] {
        [Crowd(id: String(repeating: "x", count: 257), title: "too long an id"),
         Crowd(id: "long", title: String(repeating: "y", count: 130)),
         Crowd(id: "long", title: "the same id again")]
            + (0..<300).map { Crowd(id: "c\($0)", title: "Person \($0)") }
    }
    func defaultResult() async -> Crowd? { nil }
}

private struct CrowdIntent: WidgetConfigurationIntent {
    static let title: LocalizedStringResource = "Crowd"
    @Parameter(title: "Who") var who: Crowd?
}

/// A failing query: the bundle is still described, with no entities to pick.
private struct Broken: AppEntity {
    let id: String
    static let typeDisplayRepresentation: TypeDisplayRepresentation = "Broken"
    static let defaultQuery = BrokenQuery()
    var displayRepresentation: DisplayRepresentation { "broken" }
}

private struct BrokenQuery: EntityQuery {
    struct Offline: Error {}
    func entities(for identifiers: [String]) async throws -> [Broken] { throw Offline() }
    func suggestedEntities() async throws -> [Broken] { throw Offline() }
}

private struct BrokenIntent: WidgetConfigurationIntent {
    static let title: LocalizedStringResource = "Broken"
    @Parameter(title: "Thing") var thing: Broken?
}

private struct StationEntry: TimelineEntry {
    let date: Date
    let text: String
}

private struct StationProvider: AppIntentTimelineProvider {
    func placeholder(in context: Context) -> StationEntry { StationEntry(date: .now, text: "…") }
    func snapshot(for configuration: StationIntent, in context: Context) async -> StationEntry {
        let via = configuration.via.map { " via \($0.name)" } ?? ""
        return StationEntry(date: Date(timeIntervalSince1970: 0), text: "\(configuration.station.name) (\(configuration.station.line))\(via)")
    }
    func timeline(for configuration: StationIntent, in context: Context) async -> Timeline<StationEntry> {
        Timeline(entries: [await snapshot(for: configuration, in: context)], policy: .never)
    }
}

private struct StationWidget: Widget {
    var body: some WidgetConfiguration {
        AppIntentConfiguration(kind: "stations", intent: StationIntent.self, provider: StationProvider()) { entry in
            Text(entry.text)
        }
    }
}

// MARK: IntentConfiguration

private enum Mood: String, AppEnum {
    case calm, busy
    static let typeDisplayRepresentation: TypeDisplayRepresentation = "Mood"
    static let caseDisplayRepresentations: [Mood: DisplayRepresentation] = [.calm: "Calm", .busy: "Busy"]
}

/// As Xcode generates it from an .intentdefinition, `@NSManaged` replaced by `@Parameter`.
private final class NoteIntent: INIntent {
    @Parameter(title: "Note") var note: String?
    @Parameter var count: Int?
    @Parameter(title: "Mood") var mood: Mood?
}

private struct NoteEntry: TimelineEntry {
    let date: Date
    let configuration: NoteIntent
}

private struct NoteProvider: IntentTimelineProvider {
    func placeholder(in context: Context) -> NoteEntry { NoteEntry(date: Date(timeIntervalSince1970: 0), configuration: NoteIntent()) }
    func getSnapshot(for configuration: NoteIntent, in context: Context, completion: @escaping @Sendable (NoteEntry) -> Void) {
        nonisolated(unsafe) let c = configuration
        DispatchQueue.global().async { completion(NoteEntry(date: Date(timeIntervalSince1970: 0), configuration: c)) }
    }
    func getTimeline(for configuration: NoteIntent, in context: Context, completion: @escaping @Sendable (Timeline<NoteEntry>) -> Void) {
        let entries = (0..<2).map { NoteEntry(date: Date(timeIntervalSince1970: Double($0) * 60), configuration: configuration) }
        completion(Timeline(entries: entries, policy: .atEnd))
    }
}

private struct NoteWidget: Widget {
    var body: some WidgetConfiguration {
        IntentConfiguration(kind: "notes", intent: NoteIntent.self, provider: NoteProvider()) { entry in
            Text("\(entry.configuration.note ?? "none") ×\(entry.configuration.count ?? 0) \(entry.configuration.mood?.rawValue ?? "-")")
        }
        .supportedFamilies([.systemSmall])
    }
}

/// Answers `request` with `widget`'s records, as a worker would: on a thread of its own.
private func answer(_ widget: @escaping @Sendable () -> [WidgetRecord], _ request: WireRequest) async throws -> WireResponse {
    try await onOwnThread { try PluginRuntime(bundleId: "t", records: widget(), appGroups: []).respond(to: request) }
}

/// Serialized: `askedStationIds` records what every test asks of the station query.
@Suite(.serialized) struct EntityAndINIntentTests {
    @Test func entityParametersAreDescribedWithTheQuerysEntities() async throws {
        let r = try await answer({ StationWidget().body._widgetRecords }, WireRequest(op: .describe))
        let params = try #require(r.manifest?.widgets.first?.parameters)
        #expect(params.map(\.name) == ["station", "via"])
        #expect(params.map(\.type) == ["entity", "entity"])
        let options = [EnumOption(value: "7", title: "Alexanderplatz"), EnumOption(value: "12", title: "Zoo"),
                       EnumOption(value: "30", title: "Ostkreuz")]
        #expect(params[0].options == options)
        #expect(params[1].options == options)
        // No `defaultResult()` of its own: the first suggested entity, as in AppIntents.
        #expect(params[0].defaultValue == .string("7"))
        #expect(params[1].defaultValue == .string("7"))
    }

    @Test func theProviderReceivesTheEntitiesItsQueryFinds() async throws {
        askedStationIds.withLock { $0.removeAll() }
        let r = try await answer({ StationWidget().body._widgetRecords },
                                 WireRequest(op: .timeline, kind: "stations", family: .systemSmall,
                                             configuration: ["station": .string("30"), "via": .string("12")]))
        #expect(r.entries?.first?.view.text == "Ostkreuz (S8) via Zoo")
        #expect(askedStationIds.withLock { $0 } == [[30], [12]], "asked in the parameters' name order")
        // Nothing configured: the default result for the entity, none for the optional one's id.
        let d = try await answer({ StationWidget().body._widgetRecords }, WireRequest(op: .snapshot, kind: "stations", family: .systemSmall))
        #expect(d.entries?.first?.view.text == "Alexanderplatz (U2) via Alexanderplatz")
    }

    @Test func anIdTheQueryDoesNotFindIsAnErrorNamingIt() async throws {
        for (value, message) in [("99", "no Station with id \"99\""), ("zoo", "\"zoo\" is not an id of Station")] {
            do {
                _ = try await answer({ StationWidget().body._widgetRecords },
                                     WireRequest(op: .timeline, kind: "stations", family: .systemSmall, configuration: ["station": .string(value)]))
                Issue.record("\(value) was accepted")
            } catch {
                #expect("\(error)".contains("parameter \"station\""), "\(error)")
                #expect("\(error)".contains(message), "\(error)")
            }
        }
    }

    // Queries are asked by blocking the calling thread, as the worker's request thread is:
    // never a thread of the cooperative pool, which the query's task needs.
    @Test func aPickerOffersAtMostTheLimitWithinTheTextLimits() async throws {
        let options = try #require(try await onOwnThread { Crowd.intentValueOptions })
        #expect(options.count == EntityLimits.maxSuggestedEntities)
        #expect(!options.contains { $0.value.count > EntityLimits.maxIdentifierLength })
        #expect(options[0] == EnumOption(value: "long", title: String(repeating: "y", count: EntityLimits.maxTitleLength - 1) + "…"))
        #expect(options[1] == EnumOption(value: "c0", title: "Person 0"))
        #expect(options.last == EnumOption(value: "c198", title: "Person 198"))
        #expect(try await onOwnThread { IntentRegistry.parameterDescriptors(of: CrowdIntent.self) }.first?.defaultValue == nil)
    }

    @Test func aFailingQueryLeavesTheBundleDescribedWithNothingToPick() async throws {
        let d = try await onOwnThread { IntentRegistry.parameterDescriptors(of: BrokenIntent.self) }
        #expect(d.first?.type == "entity")
        #expect(d.first?.options == [])
    }

    @Test func intentConfigurationDescribesTheDeclaredIntentsProperties() async throws {
        let r = try await answer({ NoteWidget().body._widgetRecords }, WireRequest(op: .describe))
        let w = try #require(r.manifest?.widgets.first)
        #expect(w.configuration == "IntentConfiguration")
        #expect(w.parameters.map(\.name) == ["note", "count", "mood"])
        #expect(w.parameters.map(\.title) == ["Note", "count", "Mood"])
        #expect(w.parameters.map(\.type) == ["string", "int", "enum"])
        #expect(w.parameters[2].options == [EnumOption(value: "calm", title: "Calm"), EnumOption(value: "busy", title: "Busy")])
        #expect(w.parameters.allSatisfy { $0.defaultValue == nil })
    }

    @Test func intentConfigurationHandsTheProviderItsIntent() async throws {
        let records: @Sendable () -> [WidgetRecord] = { NoteWidget().body._widgetRecords }
        let t = try await answer(records, WireRequest(op: .timeline, kind: "notes", family: .systemSmall,
                                                      configuration: ["note": .string("milk"), "count": .number(2), "mood": .string("busy")]))
        #expect(t.entries?.map(\.view.text) == ["milk ×2 busy", "milk ×2 busy"])
        #expect(t.policy == WirePolicy(type: "atEnd"))
        let s = try await answer(records, WireRequest(op: .snapshot, kind: "notes", family: .systemSmall))
        #expect(s.entries?.first?.view.text == "none ×0 -")
        let p = try await answer(records, WireRequest(op: .placeholder, kind: "notes", family: .systemSmall))
        #expect(p.entries?.first?.view.text == "none ×0 -")
        do {
            _ = try await answer(records, WireRequest(op: .timeline, kind: "notes", family: .systemSmall, configuration: ["count": .string("many")]))
            Issue.record("a count of \"many\" was accepted")
        } catch {
            #expect("\(error)".contains("parameter \"count\""), "\(error)")
        }
    }
}
