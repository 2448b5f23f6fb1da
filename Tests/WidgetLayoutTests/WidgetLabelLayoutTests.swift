import Testing
import FoundationEssentials
import OpenWidgetKit
@testable import WidgetLayout

/// iPhone's Lock Screen ignores `.widgetLabel` (Apple: only watchOS complications show it), so a
/// picture lays out the widget's view alone: the label takes no room and is not drawn.
@Test func aWidgetLabelIsLeftOutOfPictures() {
    let p = layout(Text("10k").widgetLabel { Text("Steps today") }.font(.system(size: 10)), width: 76, height: 76)
    let t = texts(p)
    #expect(t.map { $0.text?.string } == ["10k"])
    #expect(t.first?.frame == Rect(x: 30.5, y: 32, width: 15, height: 12))  // 3 × 5 pt, centred in the circle
}

/// `.textCase(.uppercase)` changes the characters pictures lay out and draw, as on iOS (a
/// calendar's "MARCH"); `.lowercase` likewise.
@Test func textCaseChangesTheCharactersLaidOut() {
    let p = layout(VStack {
        Text("March").textCase(.uppercase)
        Text("Mixed Case").textCase(.lowercase)
        Text("As written")
    }.font(.system(size: 10)), width: 200, height: 100)
    #expect(texts(p).map { $0.text?.string } == ["MARCH", "mixed case", "As written"])
}
