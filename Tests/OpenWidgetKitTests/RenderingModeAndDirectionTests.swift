import Testing
import FoundationEssentials
@testable import OpenWidgetKit

// Issue 28 item 10, the SDK's side: `@Environment(\.widgetRenderingMode)` is the request's
// (`preview --tint`, `picture.renderingMode`) or the family's own; `\.layoutDirection` is
// written on the subtree it is set for, and on the root in a right-to-left locale;
// `EllipticalGradient` crosses the wire with its kind and fractions.

private struct ModeView: View {
    @Environment(\.widgetRenderingMode) var mode
    var body: some View { Text(mode.description) }
}

private struct ModeWidget: Widget {
    var body: some WidgetConfiguration {
        StaticConfiguration(kind: "m", provider: EpochProvider()) { _ in ModeView() }
            .supportedFamilies([.systemSmall, .accessoryRectangular])
    }
}

private func shownMode(_ family: WidgetFamily, _ mode: String?) async throws -> String? {
    let rt = PluginRuntime(bundleId: "t", records: ModeWidget().body._widgetRecords, appGroups: [])
    let r = try await onOwnThread { try rt.respond(to: WireRequest(op: .snapshot, kind: "m", family: family, renderingMode: mode)) }
    return r.entries?.first?.view.text
}

@Test func theRequestsRenderingModeIsTheEnvironments() async throws {
    #expect(try await shownMode(.systemSmall, "accented") == "accented")
    #expect(try await shownMode(.systemSmall, nil) == "fullColor")
    // The Lock Screen's families are vibrant unless the request says otherwise.
    #expect(try await shownMode(.accessoryRectangular, nil) == "vibrant")
    #expect(try await shownMode(.systemSmall, "dim") == "fullColor")
}

@Test func theRenderingModeCrossesTheWire() throws {
    let written = WireCodec.encodeRequest(WireRequest(op: .timeline, kind: "m", family: .systemSmall, renderingMode: "accented"))
    #expect(String(decoding: written, as: UTF8.self).contains(#""renderingMode":"accented""#))
    #expect(try WireCodec.decode(WireRequest.self, from: written).renderingMode == "accented")
    #expect(try WireCodec.decode(WireRequest.self, from: Data(#"{"op":"timeline"}"#.utf8)).renderingMode == nil)
}

@Test func layoutDirectionIsWrittenOnTheSubtreeItIsSetFor() {
    struct Reader: View {
        @Environment(\.layoutDirection) var direction
        var body: some View { Text(direction.rawValue) }
    }
    let n = ViewEvaluator.evaluate(VStack { Reader().environment(\.layoutDirection, .rightToLeft); Reader() }
        .environment(\.layoutDirection, .leftToRight), environment: EnvironmentValues())
    #expect(n.childNodes.map(\.text) == ["rightToLeft", "leftToRight"])
    // The innermost setting wins on a node; the outer one marks the stack.
    #expect(n.childNodes[0].modifiers?.other?["layoutDirection"] == .string("rightToLeft"))
    #expect(n.modifiers?.other?["layoutDirection"] == .string("leftToRight"))
    // Other environment values leave no mark.
    #expect(ViewEvaluator.evaluate(Text("x").environment(\.isLuminanceReduced, true), environment: EnvironmentValues()).modifiers == nil)
}

@Test func aRightToLeftLocaleIsReadFromThePosixVariables() {
    #expect(LayoutDirection.of(localeName: "ar_EG.UTF-8") == .rightToLeft)
    #expect(LayoutDirection.of(localeName: "he") == .rightToLeft)
    #expect(LayoutDirection.of(localeName: "fa_IR@latin") == .rightToLeft)
    #expect(LayoutDirection.of(localeName: "de_DE.UTF-8") == .leftToRight)
    #expect(LayoutDirection.of(localeName: "C") == .leftToRight)
    let env: [String: String] = ["LANG": "ar_SA.UTF-8", "LC_MESSAGES": "en_US.UTF-8"]
    #expect(LayoutDirection.forLocale(environment: { env[$0] }) == .leftToRight)
    #expect(LayoutDirection.forLocale(environment: { ["LANG": "ur_PK"][$0] }) == .rightToLeft)
    #expect(LayoutDirection.forLocale(environment: { ["LC_ALL": "he_IL", "LANG": "en_GB"][$0] }) == .rightToLeft)
    #expect(LayoutDirection.forLocale(environment: { _ in nil }) == .leftToRight)
}

@Test func ellipticalGradientCrossesTheWireWithItsFractions() throws {
    let s = EllipticalGradient(colors: [.red, .blue], center: .topLeading, startRadiusFraction: 0.1, endRadiusFraction: 0.8)._styleSpec
    #expect(s.gradientKind == "elliptical")
    #expect(s.gradientPoints == [0, 0, 0.1, 0.8])
    #expect(s.gradient?.count == 2)
    let n = ViewEvaluator.evaluate(Rectangle().fill(.ellipticalGradient(colors: [.white, .black])), environment: EnvironmentValues())
    let back = try WireCodec.decode(ViewNode.self, from: WireCodec.encode(n))
    #expect(back.shape?.fill?.gradientKind == "elliptical")
    #expect(back.shape?.fill?.gradientPoints == [0.5, 0.5, 0, 0.5])
}

@Test func aViewPreviewIsEvaluatedInTheRequestsRenderingMode() throws {
    let preview = WidgetPreview(name: "mode", view: { ModeView() })
    #expect(try preview.entries(family: .systemSmall, displaySize: nil, colorScheme: .light, renderingMode: .accented).first?.view.text == "accented")
    #expect(try preview.entries(family: .systemSmall, displaySize: nil, colorScheme: .light).first?.view.text == "fullColor")
    #expect(try preview.entries(family: .accessoryCircular, displaySize: nil, colorScheme: .light).first?.view.text == "vibrant")
}
