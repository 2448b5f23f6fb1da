import FoundationEssentials
import OpenWidgetKit
import Testing
import WidgetLayout

private func evaluated<V: View>(_ view: V) -> ViewNode { ViewEvaluator.evaluate(view, environment: EnvironmentValues()) }

/// The one line of `view` in the 234 × 20 inline band, laid out with the fixed-advance measurer.
private func inlineLine<V: View>(_ view: V) -> PlacedNode {
    LayoutEngine(measurer: FixedAdvanceTextMeasurer(), now: fixedNow)
        .layout(InlineAccessoryLine.reduce(evaluated(view)), in: Rect(x: 0, y: 0, width: 234, height: 20))
}

@Test func inlineKeepsTheFirstTextOnOneLine() {
    // Two texts in a VStack: only "Hello" (5 × 8.5 = 42.5 × 20.4 at body size), centred.
    let p = inlineLine(VStack { Text("Hello"); Text("World") })
    #expect(texts(p).map(\.node.text) == ["Hello"])
    let f = texts(p)[0].frame
    #expect(f.x == 95.75 && abs(f.y + 0.2) < 1e-9 && f.size == Size(width: 42.5, height: 20.4))
    #expect(texts(p)[0].text?.maxLines == 1)
}

@Test func inlineShowsTheFirstImageBeforeTheText() {
    // The image (body: 20 pt) then 4 pt, then the text, whatever order the source had.
    let p = inlineLine(HStack { Text("Run"); Circle(); Image(systemName: "figure.run"); Image(systemName: "star") })
    #expect(p.children.map(\.node.kind) == [.image, .text])
    #expect(p.children[0].node.symbol == "figure.run")
    #expect(p.children.map(\.frame.x) == [92.25, 116.25])
    // A long text is cut to the band's width on one line.
    let long = inlineLine(Text(String(repeating: "word ", count: 40)))
    #expect(texts(long)[0].frame.height == 20.4 && texts(long)[0].frame.width <= 234)
}

@Test func inlineViewThatFitsPicksTheFirstLineThatFits() {
    let p = inlineLine(ViewThatFits {
        Text(String(repeating: "x", count: 40))   // 340 pt: too wide
        VStack { Text("Short"); Text("second") }
    })
    #expect(texts(p).map(\.node.text) == ["Short"])
}

@Test func inlineCarriesPrivacyAndRedactionDownToTheText() {
    let reduced = InlineAccessoryLine.reduce(evaluated(VStack { Text("1 234 €") }.privacySensitive()))
    var found: ViewNode?
    reduced.walk { if $0.kind == .text { found = $0 } }
    #expect(found?.modifiers?.privacySensitive == true)
    // A tree with neither text nor image is left as it is.
    let shapes = evaluated(Circle())
    #expect(InlineAccessoryLine.reduce(shapes) == shapes)
}
