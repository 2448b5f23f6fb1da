import Testing
import FoundationEssentials
import OpenWidgetKit
@testable import WidgetLayout

// Layout on exact numbers: a fixed-advance measurer (a character is half the font size wide, a
// line 1.2 × the size tall), so at `.system(size: 10)` a character is 5 pt and a line 12 pt.

let fixedNow = Date(timeIntervalSince1970: 1_795_269_900)

func tree<V: View>(_ view: V) -> ViewNode { ViewEvaluator.evaluate(view, environment: EnvironmentValues()) }

func layout<V: View>(_ view: V, width: Double, height: Double) -> PlacedNode {
    LayoutEngine(measurer: FixedAdvanceTextMeasurer(), now: fixedNow).layout(tree(view), in: Rect(x: 0, y: 0, width: width, height: height))
}

/// Every placed text node, in tree order.
func texts(_ p: PlacedNode) -> [PlacedNode] {
    var out: [PlacedNode] = []
    p.walk { if $0.node.kind == .text { out.append($0) } }
    return out
}

@Test func twoTextsAndASpacerSpanTheHStack() {
    let p = layout(HStack { Text("Hello"); Spacer(); Text("World!") }.font(.system(size: 10)), width: 200, height: 100)
    #expect(p.frame == Rect(x: 0, y: 44, width: 200, height: 12))
    #expect(p.children.map(\.frame) == [
        Rect(x: 0, y: 44, width: 25, height: 12),
        Rect(x: 25, y: 50, width: 145, height: 0),  // a spacer has no height, centred
        Rect(x: 170, y: 44, width: 30, height: 12),
    ])
}

@Test func squeezedHStackKeepsTheSpacersMinimumAndCutsTheFlexibleText() {
    // 100 pt for "Hello" (25), a spacer (min 8) and 20 characters (100): the text is offered
    // 67 (the spacer's minimum kept back) and wraps to two lines of 13 characters (65 pt); the
    // spacer takes the 10 left.
    let p = layout(HStack { Text("Hello"); Spacer(); Text("abcdefghijklmnopqrst") }.font(.system(size: 10)), width: 100, height: 100)
    let t = texts(p)
    #expect(t[0].frame.width == 25)
    #expect(p.children[1].frame.width == 10)
    #expect(t[1].frame == Rect(x: 35, y: 38, width: 65, height: 24))
    #expect(p.frame.width == 100)
}

@Test func layoutPriorityIsServedFirst() {
    let p = layout(HStack { Text("aaaaaaaaaa"); Text("bbbbbbbbbb").layoutPriority(1) }.font(.system(size: 10)).lineLimit(1), width: 80, height: 20)
    let t = texts(p)
    #expect(t[1].frame.width == 50)
    #expect(t[0].frame.width == 20)
    #expect(t[0].text?.maxLines == 1)
}

@Test func frameMaxWidthInfinityLeadingFillsAndAlignsLeft() {
    let p = layout(Text("Hi").font(.system(size: 10)).frame(maxWidth: .infinity, alignment: .leading), width: 100, height: 50)
    #expect(p.frame == Rect(x: 0, y: 19, width: 100, height: 12))
    #expect(p.contentFrame == Rect(x: 0, y: 19, width: 10, height: 12))
}

@Test func fixedFrameCentersAndTrailingAligns() {
    let p = layout(Text("Hi").font(.system(size: 10)).frame(width: 60, height: 40, alignment: .bottomTrailing), width: 100, height: 100)
    #expect(p.frame == Rect(x: 20, y: 30, width: 60, height: 40))
    #expect(p.contentFrame == Rect(x: 70, y: 58, width: 10, height: 12))
}

@Test func nestedPaddingAddsUp() {
    let p = layout(Text("Hi").font(.system(size: 10)).padding(4).padding(), width: 100, height: 100)
    #expect(p.frame == Rect(x: 25, y: 24, width: 50, height: 52))
    #expect(texts(p)[0].contentFrame == Rect(x: 45, y: 44, width: 10, height: 12))
    #expect(texts(p)[0].frame == Rect(x: 41, y: 40, width: 18, height: 20))
}

@Test func vStackTextTruncatesToItsLineLimit() {
    let p = layout(VStack(alignment: .leading) {
        Text("one two three four").lineLimit(1)
        Text("x")
    }.font(.system(size: 10)), width: 60, height: 100)
    let t = texts(p)
    #expect(t[0].frame.size == Size(width: 60, height: 12))
    #expect(t[0].text?.maxLines == 1)
    #expect(p.frame == Rect(x: 0, y: 34, width: 60, height: 32))
    #expect(t[1].frame == Rect(x: 0, y: 54, width: 5, height: 12))
}

@Test func textCutToTheHeightOnOffer() {
    // Four lines wanted (5 characters each at 25 pt), 30 pt on offer: two lines shown, the
    // second filled and cut.
    let p = layout(Text("aaaa bbbb cccc dddd").font(.system(size: 10)), width: 25, height: 30)
    #expect(p.frame.size == Size(width: 25, height: 24))
    #expect(p.text?.maxLines == 2)
}

@Test func minimumScaleFactorShrinksTheFont() {
    let p = layout(Text("abcdefghij").font(.system(size: 10)).lineLimit(1).minimumScaleFactor(0.5), width: 30, height: 20)
    let f = p.text!.font.size
    #expect(f >= 5 && f <= 6.1)
    #expect(p.frame.width <= 30)
}

@Test func zStackOverlaySizedByItsContent() {
    let p = layout(Circle().frame(width: 40, height: 40).overlay { Text("75%").font(.system(size: 10)) }, width: 100, height: 100)
    #expect(p.node.kind == .zstack)
    #expect(p.frame == Rect(x: 30, y: 30, width: 40, height: 40))
    #expect(p.children[0].frame == Rect(x: 30, y: 30, width: 40, height: 40))
    #expect(texts(p)[0].frame == Rect(x: 42.5, y: 44, width: 15, height: 12))
}

@Test func backgroundFillsThePaddedText() {
    let p = layout(Text("Hi").font(.system(size: 10)).padding(5).background(.red, in: Capsule()), width: 100, height: 100)
    #expect(p.children[0].frame == Rect(x: 40, y: 39, width: 20, height: 22))
    #expect(p.children[1].frame == p.children[0].frame)
}

@Test func zStackAlignsChildren() {
    let p = layout(ZStack(alignment: .topLeading) {
        Color.blue.frame(width: 50, height: 30)
        Text("A").font(.system(size: 10))
    }, width: 100, height: 100)
    #expect(p.frame == Rect(x: 25, y: 35, width: 50, height: 30))
    #expect(texts(p)[0].frame == Rect(x: 25, y: 35, width: 5, height: 12))
}

@Test func offsetMovesTheDrawingNotTheLayout() {
    let p = layout(VStack(spacing: 0) { Text("A").offset(x: 10, y: 5); Text("B") }.font(.system(size: 10)), width: 100, height: 100)
    let t = texts(p)
    #expect(t[0].frame == Rect(x: 57.5, y: 43, width: 5, height: 12))
    #expect(t[1].frame == Rect(x: 47.5, y: 50, width: 5, height: 12))
}

@Test func vStackDefaultSpacingAndAlignment() {
    let p = layout(VStack(alignment: .trailing) { Text("abcd"); Text("ab") }.font(.system(size: 10)), width: 100, height: 100)
    let t = texts(p)
    #expect(p.frame == Rect(x: 40, y: 34, width: 20, height: 32))
    #expect(t[1].frame == Rect(x: 50, y: 54, width: 10, height: 12))
}

@Test func spacerMinLengthAndFixedSize() {
    let p = layout(VStack { Text("a"); Spacer(minLength: 30) }.font(.system(size: 10)).fixedSize(), width: 100, height: 100)
    #expect(p.frame.size == Size(width: 5, height: 42))
}

@Test func flexibleFrameInsideFixedSizeTakesTheIdealWidth() {
    let p = layout(Text("abc").font(.system(size: 10)).frame(maxWidth: .infinity).fixedSize(), width: 100, height: 100)
    #expect(p.frame.size == Size(width: 15, height: 12))
}

@Test func textStylesResolveToApplesSizes() {
    #expect(ResolvedFont.resolve(FontSpec(style: "largeTitle"), weight: nil, italic: nil, monospacedDigit: nil).size == 34)
    let headline = ResolvedFont.resolve(FontSpec(style: "headline"), weight: nil, italic: nil, monospacedDigit: nil)
    #expect(headline.size == 17 && headline.weight == 600)
    #expect(ResolvedFont.resolve(FontSpec(style: "caption2"), weight: "bold", italic: nil, monospacedDigit: true) ==
            ResolvedFont(size: 11, weight: 700, monospacedDigit: true))
}

@Test func gaugeAndProgressGetIndicators() {
    let p = layout(VStack {
        ProgressView(value: 0.5)
        Gauge(value: 0.3) { Text("G") } currentValueLabel: { Text("30") }.gaugeStyle(.accessoryCircular)
    }, width: 150, height: 150)
    #expect(p.children[0].indicator?.width == 150)
    #expect(p.children[0].indicator?.height == 4)
    // The accessory ring grows with the room on offer up to 72 pt; its label sits under the value.
    let ring = p.children[1].indicator!
    #expect(ring.width == 72 && ring.height == 72)
    #expect(texts(p[1]).map(\.node.text) == ["30", "G"])
}

@Test func accessoryCircularGaugeNearlyFillsTheCircleWithItsLabelInTheOpening() {
    // Stats' steps gauge in the 76 pt accessoryCircular circle: a 72 pt ring 2 pt in from the
    // edge; the value centred in a 20 pt semibold face (4 characters × 10 = 40 × 24); the
    // symbol (caption: 12 × 1.2 = 14 pt) centred at 87 % of the ring's height, in its bottom
    // opening (y = 2 + 62.64 − 7).
    let p = layout(Gauge(value: 10_400, in: 0...15_000) { Image(systemName: "figure.walk") } currentValueLabel: { Text("10.4") }
        .gaugeStyle(.accessoryCircular), width: 76, height: 76)
    #expect(p.indicator == Rect(x: 2, y: 2, width: 72, height: 72))
    #expect(p.children.count == 2)
    let value = p[0], symbol = p[1]
    #expect(value.frame == Rect(x: 18, y: 26, width: 40, height: 24))
    #expect(value.text?.font == ResolvedFont(size: 20, weight: 600))
    #expect(symbol.node.kind == .image)
    #expect(symbol.frame.x == 31 && symbol.frame.size == Size(width: 14, height: 14))
    #expect(abs(symbol.frame.y - 57.64) < 1e-9)
    // An author's font is kept; the capacity style's full ring shows the value only.
    let own = layout(Gauge(value: 1) { Text("G") } currentValueLabel: { Text("1") }.gaugeStyle(.accessoryCircular).font(.caption2),
                     width: 76, height: 76)
    #expect(own[0].text?.font == ResolvedFont(size: 11))
    let capacity = layout(Gauge(value: 1) { Text("G") } currentValueLabel: { Text("1") }.gaugeStyle(.accessoryCircularCapacity),
                          width: 76, height: 76)
    #expect(capacity.children.map(\.node.text) == ["1"])
    // Offered less than 58 pt, the ring keeps 58.
    #expect(layout(Gauge(value: 1) { Text("G") }.gaugeStyle(.accessoryCircular), width: 40, height: 40).indicator?.width == 58)
}

extension PlacedNode {
    subscript(i: Int) -> PlacedNode { children[i] }
}

@Test func hStackAlignsFirstTextBaselines() {
    // Baselines at the font size (fixed-advance measurer): 20 for "A", 10 for "b", the colour's
    // bottom for the colour; the row is 20 above the line and max(24 − 20, 12 − 10, 0) = 4 below.
    let p = layout(HStack(alignment: .firstTextBaseline) {
        Text("A").font(.system(size: 20))
        Text("b").font(.system(size: 10))
        Color.red.frame(width: 6, height: 6)
    }, width: 100, height: 100)
    #expect(p.frame == Rect(x: 31.5, y: 38, width: 37, height: 24))
    #expect(texts(p).map(\.frame) == [Rect(x: 31.5, y: 38, width: 10, height: 24), Rect(x: 49.5, y: 48, width: 5, height: 12)])
    #expect(p.children[2].frame == Rect(x: 62.5, y: 52, width: 6, height: 6))
}

@Test func aspectRatioFitsAndFills() {
    let fit = layout(Color.red.aspectRatio(2, contentMode: .fit), width: 100, height: 100)
    #expect(fit.frame == Rect(x: 0, y: 25, width: 100, height: 50))
    let fill = layout(Color.red.aspectRatio(2, contentMode: .fill), width: 100, height: 100)
    #expect(fill.frame == Rect(x: -50, y: 0, width: 200, height: 100))
    // No ratio: the content's ideal one (a 10 × 10 shape is square).
    let square = layout(Circle().scaledToFit(), width: 120, height: 60)
    #expect(square.frame == Rect(x: 30, y: 0, width: 60, height: 60))
}

@Test func circularGaugeKeepsItsSizeInASqueezedVStack() {
    // CardioBot's small view inside content margins: 12 + 4 + 8 (spacer) + 4 + ring + 4 + 12
    // in 60 pt. The ring is fixed-size (58 × 58) as SwiftUI's circular gauge styles are, so the
    // stack overflows (102 pt, centred: 21 pt above and below) instead of squeezing the ring
    // to the 16 pt left over.
    let p = layout(VStack(alignment: .leading, spacing: 4) {
        Text("25")
        Spacer()
        Gauge(value: 0.5) { Image(systemName: "heart.fill") }.gaugeStyle(.accessoryCircularCapacity)
        Text("goal")
    }.font(.system(size: 10)), width: 100, height: 60)
    #expect(p.frame == Rect(x: 21, y: -21, width: 58, height: 102))
    #expect(p[2].frame == Rect(x: 21, y: 7, width: 58, height: 58))
    #expect(p[2].indicator == Rect(x: 21, y: 7, width: 58, height: 58))
    #expect(texts(p).map(\.frame.y) == [-21, 69])
    // A frame smaller than the ring does not shrink it either.
    let framed = layout(Gauge(value: 0.5) { Text("G") }.gaugeStyle(.accessoryCircular).frame(width: 30, height: 30), width: 100, height: 100)
    #expect(framed.frame.size == Size(width: 30, height: 30))
    #expect(framed.indicator?.size == Size(width: 58, height: 58))
}

@Test func trackingAndKerningReachTheFont() {
    let p = layout(VStack { Text("a").tracking(2); Text("b").kerning(-1); Text("c") }.font(.system(size: 10)), width: 100, height: 100)
    #expect(texts(p).map { $0.text?.font.tracking } == [2, -1, 0])
    // minimumScaleFactor scales the tracking with the size.
    #expect(ResolvedFont(size: 20, tracking: 2).scaled(0.5) == ResolvedFont(size: 10, tracking: 1))
}
