import Testing
import FoundationEssentials
@testable import OpenWidgetKit

// `@Environment(\.colorScheme)` is the request's `colorScheme` (issue 27): a widget drawn dark
// takes its dark branch, in every op, and the wire carries the scheme both ways.

private struct SchemeView: View {
    @Environment(\.colorScheme) var colorScheme
    var body: some View {
        if colorScheme == .dark { Text("dark") } else { Text("light") }
    }
}

private struct SchemeWidget: Widget {
    var body: some WidgetConfiguration {
        StaticConfiguration(kind: "s", provider: EpochProvider()) { _ in SchemeView() }.supportedFamilies([.systemSmall])
    }
}

private func shown(_ op: WireOperation, _ scheme: ColorScheme?) async throws -> String? {
    let rt = PluginRuntime(bundleId: "t", records: SchemeWidget().body._widgetRecords, appGroups: [])
    let r = try await onOwnThread { try rt.respond(to: WireRequest(op: op, kind: "s", family: .systemSmall, colorScheme: scheme)) }
    return r.entries?.first?.view.text
}

/// A dynamic `UIColor` made in the configuration's content closure (where widget code puts its
/// `containerBackground`) resolves in the request's appearance, not the default one.
@Test func aDynamicColourInTheContentClosureTakesTheRequestsScheme() async throws {
    struct Background: Widget {
        var body: some WidgetConfiguration {
            StaticConfiguration(kind: "s", provider: EpochProvider()) { _ in
                Text("x").containerBackground(Color(uiColor: UIColor { $0.userInterfaceStyle == .dark ? .black : .white }), for: .widget)
            }
        }
    }
    let rt = PluginRuntime(bundleId: "t", records: Background().body._widgetRecords, appGroups: [])
    for (scheme, expected) in [(ColorScheme.dark, "black"), (.light, "white")] {
        let r = try await onOwnThread { try rt.respond(to: WireRequest(op: .snapshot, kind: "s", family: .systemSmall, colorScheme: scheme)) }
        #expect(r.entries?.first?.view.modifiers?.containerBackground?.name == expected)
    }
}

@Test(arguments: [WireOperation.placeholder, .snapshot, .timeline])
func theRequestsColorSchemeIsTheEnvironments(op: WireOperation) async throws {
    #expect(try await shown(op, .dark) == "dark")
    #expect(try await shown(op, .light) == "light")
    #expect(try await shown(op, nil) == "light")
}

@Test func theColorSchemeCrossesTheWire() throws {
    let request = WireRequest(op: .timeline, kind: "s", family: .systemSmall, colorScheme: .dark)
    let written = WireCodec.encodeRequest(request)
    #expect(String(decoding: written, as: UTF8.self).contains(#""colorScheme":"dark""#))
    #expect(try WireCodec.decode(WireRequest.self, from: written).colorScheme == .dark)
    #expect(try WireCodec.decode(WireRequest.self, from: Data(#"{"op":"timeline"}"#.utf8)).colorScheme == nil)
    #expect(throws: DecodingError.self) { try WireCodec.decode(WireRequest.self, from: Data(#"{"op":"timeline","colorScheme":"dim"}"#.utf8)) }
}
