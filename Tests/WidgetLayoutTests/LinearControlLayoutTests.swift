import Testing
import FoundationEssentials
import OpenWidgetKit
@testable import WidgetLayout

// Issue 28 item 6: linear gauges and `ProgressView(value:label:currentValueLabel:)` as iOS
// lays them out — the label above the bar, the current value under it, the minimum and
// maximum labels at the bar's ends. Fixed-advance measurer at 10 pt: a character is 5 × 12.

@Test func linearCapacityGaugePutsTheLabelAboveTheValueUnderAndTheBoundsAtTheBarsEnds() {
    // Rows: "Battery" (35 × 12), 4, the bar row (12: the bound labels are taller than the 6 pt
    // bar), 4, "40%" (15 × 12) = 44 tall, centred in 100: from y = 28. The bar runs between
    // "0" (5 wide) and "100" (15 wide), 4 pt from each: x 9…131, centred on its row.
    let p = layout(Gauge(value: 0.4) { Text("Battery") } currentValueLabel: { Text("40%") }
        minimumValueLabel: { Text("0") } maximumValueLabel: { Text("100") }
        .gaugeStyle(.linearCapacity).font(.system(size: 10)), width: 150, height: 100)
    #expect(p.frame == Rect(x: 0, y: 28, width: 150, height: 44))
    #expect(p.children.map(\.node.role) == ["label", "currentValueLabel", "minimumValueLabel", "maximumValueLabel"])
    #expect(p[0].frame == Rect(x: 0, y: 28, width: 35, height: 12))
    #expect(p[1].frame == Rect(x: 0, y: 60, width: 15, height: 12))
    #expect(p[2].frame == Rect(x: 0, y: 44, width: 5, height: 12))
    #expect(p[3].frame == Rect(x: 135, y: 44, width: 15, height: 12))
    #expect(p.indicator == Rect(x: 9, y: 47, width: 122, height: 6))
}

@Test func accessoryLinearCapacityGaugeWithoutBoundsIsLabelBarValue() {
    // "Steps" (25 × 12), 4, the 6 pt bar, 4, "6200" (20 × 12): 38 tall, from y = 31 in 100.
    let p = layout(Gauge(value: 6200, in: 0...10_000) { Text("Steps") } currentValueLabel: { Text("6200") }
        .gaugeStyle(.accessoryLinearCapacity).font(.system(size: 10)), width: 160, height: 100)
    #expect(p.frame == Rect(x: 0, y: 31, width: 160, height: 38))
    #expect(p[0].frame == Rect(x: 0, y: 31, width: 25, height: 12))
    #expect(p.indicator == Rect(x: 0, y: 47, width: 160, height: 6))
    #expect(p[1].frame == Rect(x: 0, y: 57, width: 20, height: 12))
}

@Test func progressViewWithLabelAndCurrentValueLabelStacksThemAroundTheBar() {
    // "Downloading" (55 × 12), 4, the 4 pt bar, 4, "50%" (15 × 12): 36 tall, from y = 32.
    let p = layout(ProgressView(value: 0.5) { Text("Downloading") } currentValueLabel: { Text("50%") }
        .font(.system(size: 10)), width: 150, height: 100)
    #expect(p.frame == Rect(x: 0, y: 32, width: 150, height: 36))
    #expect(p[0].frame == Rect(x: 0, y: 32, width: 55, height: 12))
    #expect(p.indicator == Rect(x: 0, y: 48, width: 150, height: 4))
    #expect(p[1].frame == Rect(x: 0, y: 56, width: 15, height: 12))
}

@Test func linearControlsLeaveNoRoomForAbsentRowsAndTakeTheirIdealWidth() {
    // Only a label: label, 4, bar — 12 + 4 + 4 = 20 tall.
    let labelled = layout(ProgressView(value: 0.5) { Text("Up") }.font(.system(size: 10)), width: 150, height: 100)
    #expect(labelled.frame.height == 20)
    #expect(labelled.indicator == Rect(x: 0, y: 56, width: 150, height: 4))
    // Asked for its ideal width (fixedSize): the widest of the label, the value, and the bound
    // labels with 60 pt of bar between them — "0" 5 + 4 + 60 + 4 + "100" 15 = 88.
    let ideal = layout(Gauge(value: 0.4) { Text("Battery") } currentValueLabel: { Text("40%") }
        minimumValueLabel: { Text("0") } maximumValueLabel: { Text("100") }
        .gaugeStyle(.linearCapacity).font(.system(size: 10)).fixedSize(), width: 300, height: 100)
    #expect(ideal.frame.width == 88)
    #expect(ideal.indicator?.width == 60)
}
