import Testing
import FoundationEssentials
@testable import OpenWidgetKit

// The views and modifiers of issue 13 keep their meaning in the tree (and on the wire).

@Test func viewThatFitsKeepsItsCandidatesInOrder() {
    let n = eval(ViewThatFits(in: .horizontal) { Text("Long text"); Text("Short") })
    #expect(n.kind == .viewThatFits)
    #expect(n.axes == "horizontal")
    #expect(texts(n) == ["Long text", "Short"])
    #expect(eval(ViewThatFits { Text("a") }).axes == nil)
}

@Test func gridsKeepRowsColumnsAndSpacing() {
    let g = eval(Grid(alignment: .leading, horizontalSpacing: 8, verticalSpacing: 4) {
        GridRow { Text("a"); Text("b") }
        Divider()
        GridRow(alignment: .top) { Text("c"); Text("d") }
    })
    #expect(g.kind == .grid)
    #expect(g.childNodes.map(\.kind) == [.gridRow, .divider, .gridRow])
    #expect(g.horizontalSpacing == 8 && g.spacing == 4 && g.alignment == "leading")
    #expect(g.childNodes[2].alignment == "top")

    let v = eval(LazyVGrid(columns: [GridItem(.fixed(40)), GridItem(.flexible()), GridItem(.adaptive(minimum: 20))], spacing: 6) {
        ForEach(0..<5) { Text("\($0)") }
    })
    #expect(v.kind == .lazyVGrid)
    #expect(v.gridItems?.map(\.size) == ["fixed", "flexible", "adaptive"])
    #expect(v.gridItems?[0].minimum == 40)
    #expect(v.gridItems?[2].minimum == 20)
    #expect(v.childNodes.count == 5)
    #expect(eval(LazyHGrid(rows: [GridItem(), GridItem()]) { Text("x") }).kind == .lazyHGrid)
    #expect(eval(AccessoryWidgetBackground()).kind == .accessoryWidgetBackground)
}

@Test func typographyModifiersAreKept() {
    let n = eval(Text("Hi").fontDesign(.rounded).monospaced().kerning(1.5).tracking(2).textCase(.uppercase).truncationMode(.middle))
    let m = n.mods
    #expect(m.fontDesign == "rounded")
    #expect(m.monospaced == true)
    #expect(m.kerning == 1.5 && m.tracking == 2)
    #expect(m.textCase == "uppercase")
    #expect(m.truncationMode == "middle")
    #expect(eval(Text("x").textCase(nil)).mods.textCase == "none")
}

@Test func layoutAndIdentityModifiersAreKept() {
    #expect(eval(Image(systemName: "star").resizable().aspectRatio(2, contentMode: .fit)).mods.aspectRatio == 2)
    #expect(eval(Image(systemName: "star").scaledToFill()).mods.contentMode == "fill")
    #expect(eval(Image(systemName: "star").scaledToFit()).mods.contentMode == "fit")
    #expect(eval(Text("x").id(42)).mods.id == "42")
    #expect(eval(Text("x").accessibilityHidden(true)).mods.accessibilityHidden == true)
    // `.animation` is accepted and changes nothing.
    #expect(eval(Text("x").animation(.easeInOut, value: 3)) == eval(Text("x")))
    #expect(eval(Text("x").animation(.spring(response: 0.3))) == eval(Text("x")))
}

@Test func widgetAndSymbolModifiersAreKept() {
    let m = eval(Image(systemName: "drop").widgetAccentedRenderingMode(.accented).symbolRenderingMode(.hierarchical).imageScale(.large)).mods
    #expect(m.other?["widgetAccentedRenderingMode"] == .string("accented"))
    #expect(m.other?["symbolRenderingMode"] == .string("hierarchical"))
    #expect(m.other?["imageScale"] == .string("large"))

    let labelled = eval(Gauge(value: 0.5) { Text("W") }.widgetLabel("Water"))
    #expect(labelled.kind == .group)
    #expect(labelled.childNodes.map(\.kind) == [.gauge, .text])
    #expect(labelled.childNodes[1].role == "widgetLabel")
    #expect(labelled.childNodes[1].text == "Water")
}

@Test func materialsAndControlStyles() {
    #expect(eval(Text("x").background(.ultraThinMaterial)).mods.background?.name == "material.ultraThin")
    #expect(eval(Text("x").background(.regularMaterial)).mods.background?.name == "material.regular")
    let b = eval(Button(intent: LogHabitIntent()) { Text("Log") }.buttonStyle(.plain))
    #expect(b.kind == .button && b.style == "plain")
    let t = eval(Toggle(isOn: true, intent: ToggleHabitIntent(isCompleted: false)) { Text("Done") }.toggleStyle(.button))
    #expect(t.kind == .toggle && t.style == "button")
}

@Test func attributedTextAndCurrency() {
    var attributed = AttributedString("Hello ")
    attributed += AttributedString("world")
    #expect(eval(Text(attributed)).text == "Hello world")
    #expect(Text(1234.5, format: .currency(code: "USD")).plainText == "$1,234.50")
    #expect(Text(-5, format: .currency(code: "usd")).plainText == "-$5.00")
    #expect(Text(1200, format: .currency(code: "JPY")).plainText == "¥1,200")
    #expect(Text(9.99, format: .currency(code: "EUR")).plainText == "€9.99")
    #expect(Text(12, format: .currency(code: "CHF")).plainText == "CHF\u{A0}12.00")
    #expect((1234.5).formatted(.currency(code: "GBP")) == "£1,234.50")
}

@Test func newFieldsSurviveTheWireBothWays() throws {
    var n = ViewNode(kind: .lazyVGrid, children: [ViewNode(kind: .accessoryWidgetBackground)])
    n.gridItems = [GridItemSpec(size: "adaptive", minimum: 20, maximum: .infinity, spacing: 4, alignment: "leading")]
    n.horizontalSpacing = 3
    n.axes = "vertical"
    var m = Modifiers()
    m.fontDesign = "serif"; m.monospaced = true; m.kerning = 1; m.tracking = 2; m.textCase = "lowercase"
    m.truncationMode = "head"; m.aspectRatio = 1.5; m.contentMode = "fit"; m.id = "row-1"; m.accessibilityHidden = true
    m.contentMargins = EdgeInsetsSpec(top: 16, leading: 16, bottom: 16, trailing: 16)
    n.modifiers = m
    // The hand-written writer and reader against the synthesized Codable, both ways.
    var w = WireJSONWriter()
    w.value(n)
    let written = w.data
    let viaCodable = try WireCodec.encode(n)
    #expect(written == viaCodable)
    #expect(try WireCodec.decode(ViewNode.self, from: written) == n)
    let entries = [WireEntry(date: Date(timeIntervalSince1970: 0), view: n)]
    let response = WireResponse(ok: true, entries: entries)
    let data = try #require(WireJSONWriter.response(response))
    #expect(try WireJSONReader.response(from: data).entries?.first?.view == n)
    #expect(try WireJSONReader.response(from: try WireCodec.encode(response)).entries?.first?.view == n)
}
