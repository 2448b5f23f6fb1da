import Testing
import FoundationEssentials
@testable import OpenWidgetKit

@Test func shapeStylesSerialize() {
    #expect(Color.orange._styleSpec == StyleSpec(name: "orange"))
    #expect(Color.accentColor._styleSpec == StyleSpec(name: "accent"))
    #expect(Color.secondary.opacity(0.2)._styleSpec == StyleSpec(name: "secondary", opacity: 0.2))
    #expect(Color(red: 1, green: 0.5, blue: 0)._styleSpec == StyleSpec(rgba: [1, 0.5, 0, 1]))
    #expect(Color(red: 1, green: 0.5, blue: 0).opacity(0.5)._styleSpec == StyleSpec(rgba: [1, 0.5, 0, 1], opacity: 0.5))
    #expect(HierarchicalShapeStyle.quaternary._styleSpec.name == "quaternary")
    #expect(FillShapeStyle().tertiary._styleSpec.name == "fill.tertiary")
    #expect(FillShapeStyle()._styleSpec.name == "fill")
    #expect(TintShapeStyle()._styleSpec.name == "tint")
    #expect(Color.blue.secondary._styleSpec.name == "blue.secondary")

    let progress = Double("1.0") ?? 0
    let ring = eval(Circle().trim(from: 0, to: 0.3).stroke(progress >= 1.0 ? .green : .blue, style: StrokeStyle(lineWidth: 8, lineCap: .round)))
    #expect(ring.kind == .shape)
    #expect(ring.shape?.type == "circle")
    #expect(ring.shape?.stroke?.name == "green")
    #expect(ring.shape?.lineWidth == 8)
    #expect(ring.shape?.trimTo == 0.3)
    let rr = eval(RoundedRectangle(cornerRadius: 4).fill(Color.green.opacity(0.8)))
    #expect(rr.shape == { var s = ShapeInfo(type: "roundedRectangle"); s.cornerRadius = 4; s.fill = StyleSpec(name: "green", opacity: 0.8); return s }())
    let colorView = eval(Color.mint)
    #expect(colorView.kind == .color)
    #expect(colorView.shape?.fill?.name == "mint")
    let tinted = eval(Text("t").tint(.tint).foregroundStyle(.tint))
    #expect(tinted.modifiers?.foreground?.name == "tint")
}

@Test func buttonAndToggleActionsAreEncodedAndNumberedInTreeOrder() throws {
    let v = VStack {
        Button(intent: LogHabitIntent(habit: "run")) { Label("Log", systemImage: "plus") }
        HStack {
            Toggle(isOn: true, intent: ToggleHabitIntent(isCompleted: false)) { Text("Done") }
            Button("Again", intent: LogHabitIntent())
        }
        Link("Open", destination: URL(string: "myapp://x")!)
    }
    let node = eval(v)
    let button = node.childNodes[0]
    #expect(button.kind == .button)
    #expect(button.action?.id == "0")
    #expect(button.action?.intent == IntentRegistry.name(of: LogHabitIntent.self))
    #expect(button.action?.parameters == ["habit": .string("run")])
    #expect(button.action?.title == "Log Habit")
    #expect(button.childNodes.first?.kind == .label)

    let toggle = node.childNodes[1].childNodes[0]
    #expect(toggle.kind == .toggle)
    #expect(toggle.isOn == true)
    #expect(toggle.action?.id == "1")
    #expect(toggle.action?.parameters == ["isCompleted": .bool(false)])

    let second = node.childNodes[1].childNodes[1]
    #expect(second.action?.id == "2")
    #expect(second.action?.parameters == ["habit": .string("water")])
    #expect(texts(second) == ["Again"])

    let link = node.childNodes[2]
    #expect(link.kind == .link)
    #expect(link.url == "myapp://x")

    // the encoded action performs: decoding it gives the same parameter values
    let intent = try IntentRegistry.make(LogHabitIntent.self, parameters: button.action!.parameters)
    #expect(intent.habit == "run")
}

@Test func viewNodeRoundTripsThroughWireCodec() throws {
    let d = Date(timeIntervalSince1970: 1_700_000_000)
    let v = VStack(alignment: .leading, spacing: 4) {
        Text("a").font(.headline).frame(maxWidth: .infinity)
        Text(d, style: .relative)
        Gauge(value: 3, in: 0...10) { Text("g") } currentValueLabel: { Text("3") }
        Button(intent: LogHabitIntent()) { Text("b") }
        Circle().stroke(.quaternary, lineWidth: 8)
        Spacer(minLength: 2)
        Divider()
    }.padding().containerBackground(.fill.tertiary, for: .widget)
    let node = eval(v)
    let data = try WireCodec.encode(node)
    let back = try WireCodec.decode(ViewNode.self, from: data)
    #expect(back == node)
    #expect(back.alignment == "leading")
    #expect(back.spacing == 4)
    #expect(back.childNodes[0].modifiers?.frame?.maxWidth == .infinity)
    #expect(String(decoding: data, as: UTF8.self).contains("\"inf\""))
    #expect(back.childNodes[2].bounds == [0, 10])
    #expect(back.childNodes[2].childNodes.map { $0.role ?? "" } == ["label", "currentValueLabel"])
    #expect(back.childNodes[5].value == 2)
}

/// ViewNode and Modifiers decode by the keys present (ViewNodeDecoding.swift): every field set
/// to a distinct value survives the round trip, so no key is misnamed or crossed with another.
@Test func everyViewNodeAndModifierFieldRoundTrips() throws {
    let n = everyFieldNode()
    let back = try WireCodec.decode(ViewNode.self, from: try WireCodec.encode(n))
    #expect(back == n)
}

@Test func unknownKeysAreSkippedAndNullsAreAbsent() throws {
    let json = #"{"kind":"text","text":"hi","futureField":{"x":[1,2]},"symbol":null,"modifiers":{"opacity":0.5,"sparkle":true}}"#
    let n = try WireCodec.decode(ViewNode.self, from: Data(json.utf8))
    #expect(n.kind == .text && n.text == "hi" && n.symbol == nil)
    #expect(n.modifiers?.opacity == 0.5)
    #expect(throws: (any Error).self) { try WireCodec.decode(ViewNode.self, from: Data(#"{"text":"no kind"}"#.utf8)) }
}
