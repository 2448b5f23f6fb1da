import Testing
import FoundationEssentials
@testable import OpenWidgetKit

@Test func layoutModifiersInCanonicalOrderShareOneNode() {
    let node = eval(Text("a").padding(8).frame(width: 100, height: 40).background(.red))
    #expect(node.kind == .text)
    #expect(node.modifiers?.padding == EdgeInsetsSpec(top: 8, leading: 8, bottom: 8, trailing: 8))
    #expect(node.modifiers?.frame?.width == 100)
    #expect(node.modifiers?.background?.name == "red")
}

@Test func layoutModifiersOutOfOrderWrapInGroups() {
    // frame then padding: the padding goes on a wrapper, outside the frame
    let a = eval(Text("a").frame(width: 50).padding())
    #expect(a.kind == .group)
    #expect(a.modifiers?.padding == EdgeInsetsSpec(top: 16, leading: 16, bottom: 16, trailing: 16))
    #expect(a.modifiers?.frame == nil)
    #expect(a.childNodes.first?.kind == .text)
    #expect(a.childNodes.first?.modifiers?.frame?.width == 50)
    #expect(a.childNodes.first?.modifiers?.padding == nil)

    // a second padding wraps too
    let b = eval(Text("b").padding(4).padding(.horizontal, 10))
    #expect(b.kind == .group)
    #expect(b.modifiers?.padding == EdgeInsetsSpec(top: 0, leading: 10, bottom: 0, trailing: 10))
    #expect(b.childNodes[0].modifiers?.padding?.top == 4)

    // background then frame
    let c = eval(Text("c").background(.blue).frame(maxWidth: .infinity, maxHeight: .infinity, alignment: .leading))
    #expect(c.kind == .group)
    #expect(c.modifiers?.frame?.maxWidth == .infinity)
    #expect(c.modifiers?.frame?.alignment == "leading")
    #expect(c.childNodes[0].modifiers?.background?.name == "blue")
}

@Test func styleModifiersKeepTheInnermostValue() {
    let node = eval(Text("x").font(.caption).font(.title).foregroundStyle(.secondary).foregroundStyle(.red).bold())
    #expect(node.kind == .text)
    #expect(node.modifiers?.font?.style == "caption")
    #expect(node.modifiers?.foreground?.name == "secondary")
    #expect(node.modifiers?.weight == "bold")
}

@Test func backgroundAndOverlayViewsBecomeZStacks() {
    let node = eval(Text("t").background { Color.red }.overlay(alignment: .topTrailing) { Circle() })
    #expect(node.kind == .zstack)
    #expect(node.alignment == "topTrailing")
    #expect(node.childNodes.map(\.kind) == [.zstack, .shape])
    #expect(node.childNodes[1].role == "overlay")
    let inner = node.childNodes[0]
    #expect(inner.childNodes.map(\.kind) == [.color, .text])
    #expect(inner.childNodes[0].role == "background")
    #expect(inner.childNodes[0].shape?.fill?.name == "red")
}

@Test func miscModifiers() {
    let node = eval(
        Text("m")
            .rotationEffect(.degrees(-90))
            .opacity(0.5).opacity(0.5)
            .lineLimit(2).minimumScaleFactor(0.6)
            .widgetURL(URL(string: "myapp://x"))
            .containerBackground(.fill.tertiary, for: .widget)
            .privacySensitive()
            .accessibilityLabel("label \(3)")
            .hidden()
            .layoutPriority(1)
            .multilineTextAlignment(.center)
            .contentTransition(.numericText())
            .shadow(radius: 2)
            .widgetAccentable()
            .font(.system(size: 36, weight: .bold))
            .monospacedDigit()
    )
    let m = node.mods
    #expect(m.rotation == -90)
    #expect(m.opacity == 0.25)
    #expect(m.lineLimit == 2)
    #expect(m.minimumScaleFactor == 0.6)
    #expect(m.widgetURL == "myapp://x")
    #expect(m.containerBackground?.name == "fill.tertiary")
    #expect(m.privacySensitive == true)
    #expect(m.accessibilityLabel == "label 3")
    #expect(m.hidden == true)
    #expect(m.layoutPriority == 1)
    #expect(m.textAlignment == "center")
    #expect(m.other?["contentTransition"] == .string("numericText"))
    #expect(m.other?["widgetAccentable"] == .bool(true))
    #expect(m.other?["shadow"]?.objectValue?["radius"] == .number(2))
    #expect(m.font == FontSpec(style: "system", size: 36, weight: "bold"))
    #expect(m.monospacedDigit == true)
}

@Test func controlStylesAndFonts() {
    let g = eval(Gauge(value: 0.5) { Text("g") }.gaugeStyle(.accessoryCircularCapacity))
    #expect(g.style == "accessoryCircularCapacity")
    let p = eval(VStack { ProgressView(value: 3, total: 4) }.progressViewStyle(.circular))
    #expect(p.childNodes[0].style == "circular")
    #expect(p.childNodes[0].value == 0.75)
    let f = eval(Text("f").font(.system(.title3, design: .rounded).bold()))
    #expect(f.modifiers?.font == FontSpec(style: "title3", weight: "bold", design: "rounded"))
    let i = eval(Text("i").font(.caption.italic().weight(.light)))
    #expect(i.modifiers?.font == FontSpec(style: "caption", weight: "light", italic: true))
}
