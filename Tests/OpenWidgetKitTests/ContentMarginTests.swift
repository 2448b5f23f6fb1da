import Testing
import FoundationEssentials
@testable import OpenWidgetKit

// Default content margins per family, and `.contentMarginsDisabled()`, on the root of every
// evaluated entry (issue 13).

/// Shows the margins its environment reports, so the test can read them back.
private struct MarginView: View {
    @Environment(\.widgetContentMargins) var margins
    var body: some View { Text("\(Int(margins.top))") }
}

private struct WithMargins: Widget {
    var body: some WidgetConfiguration {
        StaticConfiguration(kind: "m", provider: EpochProvider()) { _ in MarginView() }
            .supportedFamilies([.systemSmall, .systemLarge, .accessoryRectangular])
    }
}

private struct WithoutMargins: Widget {
    var body: some WidgetConfiguration {
        StaticConfiguration(kind: "m", provider: EpochProvider()) { _ in MarginView() }
            .contentMarginsDisabled()
            .supportedFamilies([.systemSmall])
    }
}

private func root<W: Widget>(_ w: W.Type, _ family: WidgetFamily) async throws -> ViewNode {
    let rt = PluginRuntime(bundleId: "t", records: W().body._widgetRecords, appGroups: [])
    let r = try await onOwnThread { try rt.respond(to: WireRequest(op: .timeline, kind: "m", family: family)) }
    return try #require(r.entries?.first?.view)
}

@Test func homeScreenFamiliesHaveSixteenPointMargins() async throws {
    let sixteen = EdgeInsetsSpec(top: 16, leading: 16, bottom: 16, trailing: 16)
    #expect(try await root(WithMargins.self, .systemSmall).modifiers?.contentMargins == sixteen)
    #expect(try await root(WithMargins.self, .systemLarge).modifiers?.contentMargins == sixteen)
    #expect(try await root(WithMargins.self, .systemSmall).text == "16")
    let accessory = try await root(WithMargins.self, .accessoryRectangular)
    #expect(accessory.modifiers?.contentMargins == EdgeInsetsSpec(top: 0, leading: 0, bottom: 0, trailing: 0))
    #expect(accessory.text == "0")
}

@Test func contentMarginsDisabledZeroesTheRootButKeepsTheEnvironment() async throws {
    let r = try await root(WithoutMargins.self, .systemSmall)
    #expect(r.modifiers?.contentMargins == EdgeInsetsSpec(top: 0, leading: 0, bottom: 0, trailing: 0))
    // As on iOS, `widgetContentMargins` still holds the default, to add back with `.padding(margins)`.
    #expect(r.text == "16")
}
