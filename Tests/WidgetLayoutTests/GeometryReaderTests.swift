import FoundationEssentials
import OpenWidgetKit
import Testing
@testable import WidgetLayout

// `GeometryReader` on exact numbers (the fixed-advance measurer of LayoutTests: at
// `.system(size: 10)` a character is 5 pt wide and a line 12 pt tall). `tree` evaluates in the
// default environment: a small widget, 158 × 158 with 16 pt margins, so a reader filling it
// is told 126 × 126 at (16, 16).

@Test func aGeometryReaderTakesItsOfferAndPlacesItsContentTopLeading() {
    let view = GeometryReader { geo in
        VStack(spacing: 0) {
            Color.red.frame(width: geo.size.width / 2, height: geo.size.height / 4)
            Text("\(Int(geo.frame(in: .global).minX)),\(Int(geo.frame(in: .local).minX))").font(.system(size: 10))
        }
    }
    let p = layout(view, width: 126, height: 126)
    #expect(p.frame == Rect(x: 0, y: 0, width: 126, height: 126))
    // The content, 63 × (31.5 + 12), at the reader's top leading corner; "16,0" centred under the colour.
    #expect(p[0].frame == Rect(x: 0, y: 0, width: 63, height: 43.5))
    #expect(p[0][0].frame == Rect(x: 0, y: 0, width: 63, height: 31.5))
    #expect(texts(p).map(\.text?.string) == ["16,0"])
    #expect(texts(p).map(\.frame) == [Rect(x: 21.5, y: 31.5, width: 20, height: 12)])
}

@Test func aGeometryReaderInAStackTakesWhatTheOtherChildrenLeave() {
    let view = HStack(spacing: 0) {
        Color.blue.frame(width: 40)
        GeometryReader { _ in Color.red.frame(width: 10, height: 10) }
    }
    let p = layout(view, width: 138, height: 100)
    #expect(p.children.map(\.frame) == [Rect(x: 0, y: 0, width: 40, height: 100), Rect(x: 40, y: 0, width: 98, height: 100)])
    #expect(p[1][0].frame == Rect(x: 40, y: 0, width: 10, height: 10))
}

@Test func theProxyHasNoSafeAreaAndAnEmptyOneForAnEmptyWidget() {
    var env = EnvironmentValues()
    env.displaySize = DisplaySize(width: 10, height: 10)
    var insets: EdgeInsets?
    var size: CGSize?
    _ = ViewEvaluator.evaluate(GeometryReader { geo in
        let _ = { insets = geo.safeAreaInsets; size = geo.size }()
        Color.red
    }, environment: env)
    #expect(insets == EdgeInsets())
    // 10 pt less 2 × 16 pt of margins: nothing, never negative.
    #expect(size == CGSize(width: 0, height: 0))
}
