import Testing
import FoundationEssentials
import OpenWidgetKit
@testable import WidgetLayout

// A frame smaller than its child (issue 27): the child is placed by the frame's alignment and
// overflows on the other side, as in SwiftUI. The child is `.fixedSize()` inside the frame, and
// the frame must stay outside it (the fixed-size child ignores the frame's proposal, the frame
// still takes its own size from its proposal). Exact numbers: at `.system(size: 10)` "ab" is
// 10 × 12 pt, so ten of them stacked are 10 × 120 (VStack) or 100 × 12 (HStack).

private func column() -> some View {
    VStack(spacing: 0) { ForEach(0..<10, id: \.self) { _ in Text("ab") } }.font(.system(size: 10)).fixedSize()
}

private func row() -> some View {
    HStack(spacing: 0) { ForEach(0..<10, id: \.self) { _ in Text("ab") } }.font(.system(size: 10)).fixedSize()
}

@Test func aTopAlignedFrameKeepsTheTopOfAnOverflowingChild() {
    // The 60-pt frame is centred in 100 (y 20); the 120-pt column starts at its top.
    let t = texts(layout(column().frame(height: 60, alignment: .top), width: 100, height: 100))
    #expect(t.first?.frame == Rect(x: 45, y: 20, width: 10, height: 12))
    #expect(t.last?.frame == Rect(x: 45, y: 128, width: 10, height: 12))
}

@Test func aBottomAlignedFrameKeepsTheBottomOfAnOverflowingChild() {
    let t = texts(layout(column().frame(height: 60, alignment: .bottom), width: 100, height: 100))
    #expect(t.first?.frame == Rect(x: 45, y: -40, width: 10, height: 12))
    #expect(t.last?.frame.maxY == 80)
}

@Test func leadingAndTrailingFramesKeepTheirEdgeOfAnOverflowingChild() {
    let leading = texts(layout(row().frame(width: 60, alignment: .leading), width: 100, height: 100))
    #expect(leading.first?.frame == Rect(x: 20, y: 44, width: 10, height: 12))
    let trailing = texts(layout(row().frame(width: 60, alignment: .trailing), width: 100, height: 100))
    #expect(trailing.first?.frame == Rect(x: -20, y: 44, width: 10, height: 12))
    #expect(trailing.last?.frame.maxX == 80)
}

@Test func aFlexibleFrameThatAcceptsTheProposalKeepsTheTop() {
    // `minHeight: 0, maxHeight: .infinity` is exactly the proposed 60: the column overflows below.
    let t = texts(layout(column().frame(minHeight: 0, maxHeight: .infinity, alignment: .top), width: 100, height: 60))
    #expect(t.first?.frame == Rect(x: 45, y: 0, width: 10, height: 12))
}

@Test func aMaxOnlyFlexibleFrameGrowsToAnOverflowingChild() {
    // SwiftUI: with only `maxHeight`, the frame is max(child, proposal) = 120 tall, so it is the
    // parent (here the centring root) that places it; the alignment has no room to act.
    let p = layout(column().frame(maxHeight: .infinity, alignment: .top), width: 100, height: 60)
    #expect(p.frame == Rect(x: 45, y: -30, width: 10, height: 120))
    #expect(texts(p).first?.frame.y == -30)
}
