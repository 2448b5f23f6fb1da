import FoundationEssentials
import Synchronization
import Testing
@testable import OpenWidgetKit

enum Flavor: String, AppEnum {
    case vanilla, mint
    static let typeDisplayRepresentation = TypeDisplayRepresentation(name: "Flavor")
    static let caseDisplayRepresentations: [Flavor: DisplayRepresentation] = [.vanilla: "Vanilla", .mint: "Mint"]
}

struct FlavorIntent: WidgetConfigurationIntent {
    static let title: LocalizedStringResource = "Flavor"
    @Parameter(title: "Flavor", default: .mint) var flavor: Flavor
    @Parameter(title: "Scoops", default: 2) var scoops: Int
    @Parameter(title: "Note") var note: String?
}

let performedCounts = Mutex<[Int]>([])

struct AddIntent: AppIntent {
    static let title: LocalizedStringResource = "Add"
    @Parameter(title: "Amount") var amount: Int
    init() {}
    init(amount: Int) { self.amount = amount }
    func perform() async throws -> some IntentResult {
        performedCounts.withLock { $0.append(amount) }
        WidgetCenter.shared.reloadTimelines(ofKind: "flavors")
        WidgetCenter.shared.reloadTimelines(ofKind: "flavors")
        return .result()
    }
}

private struct FlavorEntry: TimelineEntry {
    let date: Date
    let text: String
}

private struct FlavorProvider: AppIntentTimelineProvider {
    func placeholder(in context: Context) -> FlavorEntry { FlavorEntry(date: .now, text: "…") }
    func snapshot(for configuration: FlavorIntent, in context: Context) async -> FlavorEntry {
        FlavorEntry(date: .now, text: "\(configuration.scoops) \(configuration.flavor.rawValue)")
    }
    func timeline(for configuration: FlavorIntent, in context: Context) async -> Timeline<FlavorEntry> {
        Timeline(entries: [await snapshot(for: configuration, in: context)], policy: .never)
    }
}

private struct FlavorWidget: Widget {
    var body: some WidgetConfiguration {
        AppIntentConfiguration(kind: "flavors", intent: FlavorIntent.self, provider: FlavorProvider()) { entry in
            VStack {
                Text(entry.text)
                Button(intent: AddIntent(amount: 3)) { Text("Add 3") }
            }
        }
    }
}

/// Answers `request` with the flavor widget, as a worker would: on a thread of its own.
private func flavors(_ request: WireRequest) async throws -> WireResponse {
    try await onOwnThread {
        try PluginRuntime(bundleId: "t", records: FlavorWidget().body._widgetRecords, appGroups: []).respond(to: request)
    }
}

@Suite struct IntentTests {
    @Test func parametersAreDescribedWithTypesDefaultsAndOptions() {
        let d = IntentRegistry.parameterDescriptors(of: FlavorIntent.self)
        #expect(d.map(\.name) == ["flavor", "scoops", "note"])
        #expect(d[0].type == "enum")
        #expect(d[0].defaultValue == .string("mint"))
        #expect(d[0].options == [EnumOption(value: "vanilla", title: "Vanilla"), EnumOption(value: "mint", title: "Mint")])
        #expect(d[1].type == "int")
        #expect(d[1].defaultValue == .number(2))
        #expect(d[2].defaultValue == nil)
    }

    @Test func configurationReachesTheProvider() async throws {
        let r = try await flavors(WireRequest(op: .timeline, kind: "flavors", family: .systemSmall,
                                              configuration: ["flavor": .string("vanilla"), "scoops": .number(4)]))
        let first = try #require(r.entries?.first?.view.childNodes.first)
        #expect(first.text == "4 vanilla")
        #expect(r.policy == WirePolicy(type: "never"))
    }

    @Test func badConfigurationNamesTheParameter() async {
        await #expect(throws: IntentError.self) {
            try await flavors(WireRequest(op: .timeline, kind: "flavors", family: .systemSmall, configuration: ["flavor": .string("banana")]))
        }
        do {
            _ = try await flavors(WireRequest(op: .timeline, kind: "flavors", family: .systemSmall, configuration: ["sprinkles": .bool(true)]))
            Issue.record("an unknown parameter was accepted")
        } catch {
            #expect("\(error)".contains("no parameter \"sprinkles\""))
        }
    }

    @Test func buttonCarriesItsIntentAndPerformRunsIt() async throws {
        let r = try await flavors(WireRequest(op: .snapshot, kind: "flavors", family: .systemSmall))
        var action: IntentAction?
        try #require(r.entries?.first).view.walk { if $0.kind == .button { action = $0.action } }
        let a = try #require(action)
        #expect(a.id == "0")
        #expect(a.parameters == ["amount": .number(3)])
        #expect(a.title == "Add")
        let before = performedCounts.withLock { $0.count }
        let performed = try await flavors(WireRequest(op: .perform, kind: "flavors", family: .systemSmall, action: a))
        #expect(performed.ok)
        #expect(performed.reloadRequests == ["flavors"])
        #expect(performedCounts.withLock { $0.count } == before + 1)
        #expect(performedCounts.withLock { $0.last } == 3)
    }

    @Test func intentsRoundTripTheirParameters() throws {
        let made = try IntentRegistry.make(FlavorIntent.self, parameters: ["note": .string("extra cone")])
        #expect(made.note == "extra cone")
        #expect(made.flavor == .mint)
        #expect(IntentRegistry.parameters(of: made)["note"] == .string("extra cone"))
    }
}
