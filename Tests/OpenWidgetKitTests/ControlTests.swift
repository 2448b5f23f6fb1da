import Testing
import FoundationEssentials
@testable import OpenWidgetKit

@Test func labelsProgressAndGaugeSlots() {
    let label = eval(Label { Text("T") } icon: { Image("logo") }.labelStyle(.iconOnly))
    #expect(label.kind == .label)
    #expect(label.style == "iconOnly")
    #expect(label.childNodes.map { $0.role ?? "" } == ["title", "icon"])
    #expect(label.childNodes[1].text == "logo")
    #expect(label.childNodes[1].symbol == nil)

    let p = eval(ProgressView(value: 5.0, total: 2.0) { Text("Steps") })
    #expect(p.value == 1)  // clamped
    #expect(p.childNodes.first?.role == "label")
    #expect(eval(ProgressView()).value == nil)

    let g = eval(Gauge(value: 20.0, in: 0...40) { Text("L") } currentValueLabel: { Text("20") }
                    minimumValueLabel: { Text("0") } maximumValueLabel: { Text("40") })
    #expect(g.value == 20)
    #expect(g.childNodes.map { $0.role ?? "" } == ["label", "currentValueLabel", "minimumValueLabel", "maximumValueLabel"])
    #expect(texts(g) == ["L", "20", "0", "40"])
}

@Test func stacksStoreAlignmentAndSpacing() {
    let z = eval(ZStack(alignment: .bottomTrailing) { Color.clear })
    #expect(z.alignment == "bottomTrailing")
    #expect(z.spacing == nil)
    let h = eval(HStack(alignment: .top, spacing: 3) { Text("a"); Spacer(); Divider() })
    #expect(h.alignment == "top")
    #expect(h.spacing == 3)
    #expect(h.childNodes.map(\.kind) == [.text, .spacer, .divider])
    #expect(eval(VStack { Text("v") }).alignment == "center")
    #expect(Alignment.leading.name == "leading")
    #expect(Alignment.top.name == "top")
}

@Test func textConcatenationAndInterpolatedText() {
    #expect((Text("a") + Text("b")).plainText == "ab")
    #expect(Text("x\(Text("y"))z").plainText == "xyz")
    #expect(Text("\(3.5)").plainText == "3.5")
}
