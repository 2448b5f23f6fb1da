import Testing
import FoundationEssentials
import OpenWidgetKit
@testable import WidgetLayout

// Issue 28 item 10: right-to-left layout (`.environment(\.layoutDirection, .rightToLeft)`,
// or a right-to-left locale's root) mirrors stacks, alignments and padding edges on exact
// numbers. Fixed-advance measurer at 10 pt: a character is 5 × 12.

@Test func rightToLeftHStackRunsFromTheTrailingEdge() {
    let ltr = layout(HStack { Text("Hello"); Spacer(); Text("World!") }.font(.system(size: 10)), width: 200, height: 100)
    #expect(texts(ltr).map(\.frame.x) == [0, 170])
    let rtl = layout(HStack { Text("Hello"); Spacer(); Text("World!") }.font(.system(size: 10))
        .environment(\.layoutDirection, .rightToLeft), width: 200, height: 100)
    // "Hello" (25 wide) first, at the right edge; "World!" (30) at the left.
    #expect(texts(rtl).map(\.frame) == [Rect(x: 175, y: 44, width: 25, height: 12), Rect(x: 0, y: 44, width: 30, height: 12)])
    #expect(rtl.frame == ltr.frame)
}

@Test func rightToLeftMirrorsLeadingAlignmentAndLeadingPadding() {
    // A 30 × 32 VStack with 20 pt of leading padding: 50 × 32, centred at x 75…125. Right to
    // left the padding is on the right (content 75…105) and leading-aligned rows hug its
    // right edge: "ab" (10 wide) at 95, "abcdef" (30) at 75.
    let p = layout(VStack(alignment: .leading) { Text("ab"); Text("abcdef") }.padding(.leading, 20).font(.system(size: 10))
        .environment(\.layoutDirection, .rightToLeft), width: 200, height: 100)
    #expect(p.frame == Rect(x: 75, y: 34, width: 50, height: 32))
    #expect(p.contentFrame == Rect(x: 75, y: 34, width: 30, height: 32))
    #expect(texts(p).map(\.frame.x) == [95, 75])
    // Left to right: padding on the left, rows at the content's left edge.
    let ltr = layout(VStack(alignment: .leading) { Text("ab"); Text("abcdef") }.padding(.leading, 20).font(.system(size: 10)),
                     width: 200, height: 100)
    #expect(ltr.contentFrame.x == 95)
    #expect(texts(ltr).map(\.frame.x) == [95, 95])
}

@Test func aLeftToRightSubtreeInsideARightToLeftOneKeepsItsOwnOrder() {
    // "A", then an HStack "B" "C" forced left to right: 5 + 8 + (5 + 8 + 5) = 31 wide, at
    // x 84.5…115.5. Right to left "A" is rightmost (110.5); the inner group sits to its left
    // and still reads B (84.5) then C (97.5).
    let p = layout(HStack { Text("A"); HStack { Text("B"); Text("C") }.environment(\.layoutDirection, .leftToRight) }
        .font(.system(size: 10)).environment(\.layoutDirection, .rightToLeft), width: 200, height: 100)
    let t = texts(p)
    #expect(t.map(\.node.text) == ["A", "B", "C"])
    #expect(t.map(\.frame.x) == [110.5, 84.5, 97.5])
}

@Test func rightToLeftFlipsTextAlignmentAndLinearControls() {
    // A wrapped, leading-aligned text aligns its lines to the right edge.
    let text = layout(Text("aaaa bb").font(.system(size: 10)).frame(width: 25).environment(\.layoutDirection, .rightToLeft),
                      width: 100, height: 100)
    #expect(texts(text)[0].text?.alignment == 1)
    #expect(texts(layout(Text("aaaa bb").font(.system(size: 10)).frame(width: 25), width: 100, height: 100))[0].text?.alignment == 0)
    // The progress view's label and value move to the right edge; the bar spans the width.
    let p = layout(ProgressView(value: 0.5) { Text("Downloading") } currentValueLabel: { Text("50%") }
        .font(.system(size: 10)).environment(\.layoutDirection, .rightToLeft), width: 150, height: 100)
    #expect(p[0].frame == Rect(x: 95, y: 32, width: 55, height: 12))
    #expect(p[1].frame == Rect(x: 135, y: 56, width: 15, height: 12))
    #expect(p.indicator == Rect(x: 0, y: 48, width: 150, height: 4))
}

@Test func aRootMarkedRightToLeftByTheLocaleIsMirrored() {
    // What the SDK writes on a widget's root in a right-to-left locale.
    var root = tree(HStack { Text("a"); Spacer(); Text("bb") }.font(.system(size: 10)))
    var m = root.mods
    m.other = [LayoutDirection.modifierKey: .string("rightToLeft")]
    root.modifiers = m
    let p = LayoutEngine(measurer: FixedAdvanceTextMeasurer(), now: fixedNow).layout(root, in: Rect(x: 0, y: 0, width: 100, height: 50))
    #expect(texts(p).map(\.frame.x) == [95, 0])
}

@Test func aRightToLeftInlineLineHasItsImageOnTheRight() {
    // The one line of accessoryInline keeps the root's direction: the symbol (20 pt at body
    // size) right of "Run" (3 × 8.5) in the 234 pt band, mirrored from 92.25 / 116.25.
    var root = tree(HStack { Text("Run"); Image(systemName: "figure.run") })
    var m = root.mods
    m.other = [LayoutDirection.modifierKey: .string("rightToLeft")]
    root.modifiers = m
    let p = LayoutEngine(measurer: FixedAdvanceTextMeasurer(), now: fixedNow)
        .layout(InlineAccessoryLine.reduce(root), in: Rect(x: 0, y: 0, width: 234, height: 20))
    #expect(p.children.map(\.node.kind) == [.image, .text])
    #expect(p.children.map(\.frame.x) == [121.75, 92.25])
}
