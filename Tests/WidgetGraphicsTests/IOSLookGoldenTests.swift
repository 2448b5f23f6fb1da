import FoundationEssentials
import OpenWidgetKit
import Testing
@testable import WidgetGraphics
import WidgetLayout
#if canImport(Glibc)
import Glibc
#endif

/// Picture goldens of what issue 28 draws that no example bundle shows: bordered and tinted
/// buttons, `AccessoryWidgetBackground` behind a circular gauge with its label in the opening,
/// a placeholder that keeps its shapes' colours, the SF Symbols and faces of items 7 and 8. Scale 2, compared with
/// `Fixtures/ios-look/<name>.png` with the example goldens' tolerance (40 per channel, 0.2 % of
/// the pixels). Each golden was looked at before it was committed; to re-record after an
/// intended change: `WIDGETHOST_UPDATE_GOLDENS=1 swift test --skip-build --filter
/// IOSLookGoldenTests`, then look at every changed picture.
private let fixedNow = Date(timeIntervalSince1970: 1_773_569_400)  // 2026-03-15 10:10:00 UTC

private struct LookCase: CustomTestStringConvertible, Sendable {
    let name: String
    let family: WidgetFamily
    let redact: Bool?
    let tree: @Sendable () -> ViewNode
    var testDescription: String { name }
}

private func button(_ title: String, style: String, tint: String?) -> ViewNode {
    var b = ViewNode(kind: .button, children: [ViewEvaluator.evaluate(Label(title, systemImage: "plus.circle.fill"), environment: EnvironmentValues())])
    b.style = style
    if let tint { var m = Modifiers(); m.tint = StyleSpec(name: tint); b.modifiers = m }
    return b
}

private let cases: [LookCase] = [
    LookCase(name: "buttons-systemSmall", family: .systemSmall, redact: nil) {
        var v = ViewNode(kind: .vstack, children: [
            button("Log", style: "automatic", tint: "green"),
            button("Log", style: "bordered", tint: "green"),
            button("Log", style: "borderedProminent", tint: "orange"),
            button("Log", style: "plain", tint: "green"),
        ])
        v.spacing = 8
        return v
    },
    LookCase(name: "backed-gauge-accessoryCircular", family: .accessoryCircular, redact: nil) {
        ViewEvaluator.evaluate(ZStack {
            AccessoryWidgetBackground()
            Gauge(value: 0.62) { Image(systemName: "figure.walk") } currentValueLabel: { Text("6.2") }.gaugeStyle(.accessoryCircular)
        }, environment: EnvironmentValues())
    },
    LookCase(name: "placeholder-systemSmall", family: .systemSmall, redact: true) {
        ViewEvaluator.evaluate(VStack(alignment: .leading) {
            Label("Drink Water", systemImage: "drop.fill").font(.headline)
            Circle().trim(from: 0, to: 0.6).stroke(Color.blue, lineWidth: 8).frame(width: 60, height: 60)
            HStack { ForEach(0..<5) { _ in Capsule().fill(Color.green).frame(width: 10, height: 24) } }
        }, environment: EnvironmentValues())
    },
    // Issue 28's symbols, each in its glyph's box (chevrons narrow, cpu and memorychip apart),
    // captions with their icon 6 pt before the title, a rounded face.
    LookCase(name: "symbols-systemMedium", family: .systemMedium, redact: nil) {
        ViewEvaluator.evaluate(VStack(alignment: .leading, spacing: 10) {
            HStack(spacing: 10) {
                Image(systemName: "chevron.left"); Image(systemName: "chevron.right"); Image(systemName: "chevron.up")
                Image(systemName: "chevron.down"); Image(systemName: "arrow.circlepath"); Image(systemName: "largecircle.fill.circle")
                Image(systemName: "umbrella.fill"); Image(systemName: "message.fill"); Image(systemName: "bus")
                Image(systemName: "cpu"); Image(systemName: "memorychip")
            }.font(.title3)
            HStack(spacing: 16) {
                Label("12 min", systemImage: "clock")
                Label("Rain at 4 pm", systemImage: "umbrella.fill")
                Label("Next", systemImage: "chevron.right")
            }.font(.caption).foregroundStyle(.secondary)
            HStack(alignment: .firstTextBaseline) {
                Text("72°").font(.system(size: 34, weight: .bold, design: .rounded))
                Text("Feels like 75°").font(.system(.body, design: .rounded))
            }
        }, environment: EnvironmentValues())
    },
]

@Test(arguments: cases)
private func looksMatchTheirGoldens(_ c: LookCase) throws {
    _ = PinnedFonts.configured
    let options = PictureOptions(scale: 2, now: fixedNow, redact: c.redact)
    let png = try PictureRenderer().render(c.tree(), family: c.family, format: .png, options: options).bytes
    try GoldenFiles.check(png, folder: "ios-look", name: c.name)
}
