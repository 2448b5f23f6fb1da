import FoundationEssentials
@testable import OpenWidgetKit
import Testing
@testable import WidgetRendering

// An element that ignores its children (`accessibilityElement(children: .ignore)`) with an
// `accessibilityLabel` is read by the text outputs as its label alone, as a screen reader
// reads it: an analog clock face reads "Paris, 11:09", not the numerals drawn on it.

private func face(_ label: String) -> some View {
    ZStack {
        Circle().fill(Color.white)
        ForEach(1...12, id: \.self) { n in Text("\(n)").offset(x: Double(n), y: 0) }
    }
    .frame(width: 60, height: 60)
    .accessibilityElement(children: .ignore)
    .accessibilityLabel(label)
}

private func tree<V: View>(_ v: V, _ family: WidgetFamily) -> ViewNode {
    var env = EnvironmentValues()
    env.widgetFamily = family
    return ViewEvaluator.evaluate(v, environment: env)
}

private func render(_ n: ViewNode, _ f: WidgetFamily) -> String {
    TextRenderer.render(n, family: f, options: RenderOptions(now: Date(timeIntervalSince1970: 1_795_000_000)))
}

@Test func anElementThatIgnoresItsChildrenReadsAsItsLabel() {
    let row = HStack { face("Paris, 11:09"); Text("Today, +1HRS") }
    #expect(render(tree(row, .accessoryInline), .accessoryInline) == "Paris, 11:09 Today, +1HRS")
    let grid = render(tree(row, .systemMedium), .systemMedium)
    // In the grid the label wraps in the face's 60 pt frame; no numeral shows.
    #expect(grid.contains("Paris,") && grid.contains("11:09") && grid.contains("Today, +1HRS") && !grid.contains("12"), "\(grid)")
    let lines = render(tree(VStack { face("Tokyo, 19:09"); face("Paris, 11:09") }, .accessoryRectangular), .accessoryRectangular)
    #expect(lines.contains("Tokyo, 19:09") && lines.contains("Paris, 11:09") && !lines.contains("12"), "\(lines)")
}

@Test func withoutTheLabelOrWithOtherBehavioursTheChildrenShow() {
    let unlabelled = ZStack { Text("12"); Text("6") }.accessibilityElement(children: .ignore)
    #expect(render(tree(unlabelled, .accessoryInline), .accessoryInline) == "12 6")
    let combined = ZStack { Text("12"); Text("6") }.accessibilityElement(children: .combine).accessibilityLabel("Clock")
    #expect(render(tree(combined, .accessoryInline), .accessoryInline) == "12 6")
}
