import FoundationEssentials
import OpenWidgetKit

// Hand-built view trees for the renderer tests: a tiny DSL over `ViewNode`, as the SDK's
// evaluator would produce them.

extension ViewNode {
    static func text(_ s: String) -> ViewNode { var n = ViewNode(kind: .text); n.text = s; return n }
    static func live(_ d: DateText) -> ViewNode { var n = ViewNode(kind: .text); n.date = d; return n }
    static func image(_ symbol: String) -> ViewNode { var n = ViewNode(kind: .image); n.symbol = symbol; return n }
    static func label(_ title: String, _ symbol: String) -> ViewNode {
        var icon = ViewNode.image(symbol); icon.role = "icon"
        var t = ViewNode.text(title); t.role = "title"
        return ViewNode(kind: .label, children: [icon, t])
    }
    static func vstack(_ alignment: String? = nil, spacing: Double? = nil, _ c: [ViewNode]) -> ViewNode {
        var n = ViewNode(kind: .vstack, children: c); n.alignment = alignment; n.spacing = spacing; return n
    }
    static func hstack(_ alignment: String? = nil, spacing: Double? = nil, _ c: [ViewNode]) -> ViewNode {
        var n = ViewNode(kind: .hstack, children: c); n.alignment = alignment; n.spacing = spacing; return n
    }
    static func zstack(_ alignment: String? = nil, _ c: [ViewNode]) -> ViewNode {
        var n = ViewNode(kind: .zstack, children: c); n.alignment = alignment; return n
    }
    static func vstack(_ c: [ViewNode]) -> ViewNode { vstack(nil, spacing: nil, c) }
    static func hstack(_ c: [ViewNode]) -> ViewNode { hstack(nil, spacing: nil, c) }
    static func zstack(_ c: [ViewNode]) -> ViewNode { zstack(nil, c) }
    static var spacer: ViewNode { ViewNode(kind: .spacer) }
    static var divider: ViewNode { ViewNode(kind: .divider) }
    static func progress(_ v: Double, label: ViewNode? = nil) -> ViewNode {
        var n = ViewNode(kind: .progress, children: label.map { [$0] }); n.value = v; return n
    }
    static func gauge(_ v: Double, in bounds: [Double], style: String? = nil, current: String? = nil, label: String? = nil) -> ViewNode {
        var kids: [ViewNode] = []
        if let label { var l = ViewNode.text(label); l.role = "label"; kids.append(l) }
        if let current { var c = ViewNode.text(current); c.role = "currentValueLabel"; kids.append(c) }
        var n = ViewNode(kind: .gauge, children: kids); n.value = v; n.bounds = bounds; n.style = style; return n
    }
    static func shape(_ type: String, fill: StyleSpec? = nil, stroke: StyleSpec? = nil,
                      trim: ClosedRange<Double>? = nil, cornerRadius: Double? = nil) -> ViewNode {
        var info = ShapeInfo(type: type)
        info.fill = fill; info.stroke = stroke; info.cornerRadius = cornerRadius
        if stroke != nil { info.lineWidth = 8 }
        info.trimFrom = trim?.lowerBound; info.trimTo = trim?.upperBound
        var n = ViewNode(kind: .shape); n.shape = info; return n
    }
    static func button(_ title: String) -> ViewNode {
        var n = ViewNode(kind: .button, children: [.text(title)])
        n.action = IntentAction(id: "0", intent: "LogIntent", parameters: [:], title: title); return n
    }
    static func toggle(_ title: String, isOn: Bool) -> ViewNode {
        var n = ViewNode(kind: .toggle, children: [.text(title)]); n.isOn = isOn; return n
    }

    func mod(_ f: (inout Modifiers) -> Void) -> ViewNode {
        var n = self; var m = n.modifiers ?? Modifiers(); f(&m); n.modifiers = m; return n
    }
    func frame(width: Double? = nil, height: Double? = nil, maxWidth: Double? = nil, maxHeight: Double? = nil,
               alignment: String? = nil) -> ViewNode {
        mod { $0.frame = FrameSpec(width: width, height: height, maxWidth: maxWidth, maxHeight: maxHeight, alignment: alignment) }
    }
    func padding(_ pt: Double = 16) -> ViewNode {
        mod { $0.padding = EdgeInsetsSpec(top: pt, leading: pt, bottom: pt, trailing: pt) }
    }
    func font(_ style: String, weight: String? = nil) -> ViewNode { mod { $0.font = FontSpec(style: style, weight: weight) } }
    func foreground(_ name: String, opacity: Double? = nil) -> ViewNode {
        mod { $0.foreground = StyleSpec(name: name, opacity: opacity) }
    }
    func role(_ r: String) -> ViewNode { var n = self; n.role = r; return n }
}

/// Sample trees resembling the seed widgets.
enum Samples {
    /// Habit tracker, small: header, spacer, name, progress, count.
    static var habitSmall: ViewNode {
        .vstack("leading", spacing: 4, [
            .hstack([.image("flame.fill").foreground("orange"), .text("Streak 12").font("caption"), .spacer,
                     .image("checkmark.circle.fill").foreground("green")]),
            .spacer,
            .text("Morning run").font("headline"),
            .progress(0.6).mod { $0.tint = StyleSpec(name: "orange") },
            .text("3 of 5 this week").font("caption").foreground("secondary"),
        ]).padding()
    }

    /// Ring widget, medium: ZStack ring 80×80 and a detail column.
    static var ringMedium: ViewNode {
        let ring = ViewNode.zstack([
            .shape("circle", stroke: StyleSpec(name: "red", opacity: 0.3)),
            .shape("circle", stroke: StyleSpec(name: "red"), trim: 0...0.62).mod { $0.rotation = -90 },
            .vstack(spacing: 0, [.text("62%").font("title2", weight: "bold"), .text("goal").font("caption2")]),
        ]).frame(width: 80, height: 80)
        let detail = ViewNode.vstack("leading", spacing: 6, [
            .label("Heart Points", "heart.fill").font("headline"),
            .text("31 of 50 pts"),
            .text("Updated 14:05").font("caption").foreground("secondary"),
        ])
        return .hstack(spacing: 16, [ring, detail, .spacer]).padding()
    }

    /// Large layout: title, a 7-day row of rounded rectangles, a divider and a button.
    static var weekLarge: ViewNode {
        let done = [true, true, false, true, true, false, false]
        let days = ["M", "T", "W", "T", "F", "S", "S"]
        let row = ViewNode.hstack(spacing: 8, (0..<7).map { i in
            .vstack(spacing: 4, [
                .shape("roundedRectangle", fill: done[i] ? StyleSpec(name: "green") : StyleSpec(name: "gray", opacity: 0.3),
                       cornerRadius: 4).frame(height: 32),
                .text(days[i]).font("caption2"),
            ])
        })
        return .vstack("leading", spacing: 8, [
            .hstack([.label("Morning run", "figure.walk").font("headline"), .spacer, .text("4/7")]),
            row,
            .divider,
            .text("Best streak: 21 days. Keep the momentum going, one run at a time!"),
            .spacer,
            .hstack([.button("Log run"), .spacer, .toggle("Reminders", isOn: true)]),
        ]).padding()
    }

    /// Stats: Label + big number + unit, frame(maxWidth: .infinity, alignment: .leading).
    static var stats: ViewNode {
        .vstack("leading", spacing: 2, [
            .label("CPU", "cpu").font("caption").foreground("secondary"),
            .hstack("firstTextBaseline", spacing: 2, [.text("42").font("largeTitle", weight: "bold"), .text("%").font("caption")]),
            .text("4 cores · 2.4 GHz").font("caption2"),
        ]).frame(maxWidth: .infinity, alignment: "leading").padding()
    }

    static var circularGauge: ViewNode {
        .gauge(5, in: [0, 10], style: "accessoryCircularCapacity", current: "5", label: "Runs")
    }

    static var rectangular4: ViewNode {
        .vstack("leading", [
            .label("Morning run", "flame.fill").font("headline"),
            .text("Streak: 12 days in a row"),
            .text("3 of 5 this week"),
            .text("Next: tomorrow 07:00"),
        ])
    }

    static var inline: ViewNode {
        .hstack([.image("flame.fill"), .text("12"), .text("Morning run"), .progress(0.62)])
    }
}
