import FoundationEssentials
import OpenWidgetKit

/// A stretch of inline text with one style.
struct Run: Hashable {
    var text: String
    var style: RunStyle
}

/// One visible thing of an inline rendering (a text, a symbol, a label, a control); items are
/// joined with single spaces.
typealias InlineItem = [Run]

/// One line of an accessory rendering: inline items, or a progress bar across the width.
enum AccessoryLine {
    case items([InlineItem])
    case bar(Double)
}

/// Flattens a view tree into inline items (`accessoryInline`, Pango, waybar `text`) and into
/// lines (`accessoryRectangular`, `accessoryCircular`). Stacks are flattened in order;
/// spacers, dividers, shapes, colours and hidden nodes contribute nothing; a label is
/// icon + space + title; progress and gauges show as "62%" (or their current-value label);
/// buttons as "[title]", toggles as "[x] title". Bounded by `RenderLimits`.
struct InlineFlattener {
    private var budget = RenderLimits.maxNodes
    /// The columns a `ViewThatFits` candidate must fit in to be chosen.
    var width = Int.max

    /// The items of `node` in environment `env` (the environment of its parent).
    mutating func items(_ n: ViewNode, _ parent: RenderEnv) -> [InlineItem] {
        var out: [InlineItem] = []
        collect(n, parent, into: &out)
        return out
    }

    private mutating func collect(_ n: ViewNode, _ parent: RenderEnv, into out: inout [InlineItem]) {
        guard budget > 0, parent.depth < RenderLimits.maxDepth else { return }
        budget -= 1
        let env = parent.applying(n.modifiers)
        if n.modifiers?.hidden == true || n.role == "widgetLabel" { return }
        if let label = n.textOutputLabel {
            out.append([Run(text: env.display(label), style: env.style)])
            return
        }
        switch n.kind {
        case .viewThatFits:
            // The first candidate whose one-line rendering fits, else the last.
            let candidates = Array(limited(n))
            for (i, c) in candidates.enumerated() {
                let item = join(items(c, env))
                let w = item.reduce(0) { $0 + displayWidth(of: $1.text) }
                if w <= width || i == candidates.count - 1 {
                    if !item.isEmpty { out.append(item) }
                    return
                }
            }
        case .text:
            let runs = env.runs(of: n).filter { !$0.text.isEmpty }
            if !runs.isEmpty { out.append(runs) }
        case .image:
            if let s = n.symbol { out.append([Run(text: env.glyph(s), style: env.style)]) }
            else if let t = n.text, !t.isEmpty { out.append([Run(text: env.display(t), style: env.style)]) }
        case .label:
            let item = join(labelParts(n, env))
            if !item.isEmpty { out.append(item) }
        case .progress, .gauge:
            for c in limited(n) where c.role == "label" || (n.kind == .progress && c.role == nil) {
                collect(c, env, into: &out)
            }
            out.append(valueItem(n, env))
        case .button:
            var inner = join(contentItems(n, env))
            if inner.isEmpty, let t = n.action?.title ?? n.text { inner = [Run(text: env.display(t), style: env.style)] }
            // `.buttonStyle(.plain)` / `.borderless`: the label alone, as SwiftUI draws it.
            if n.style == "plain" || n.style == "borderless" { out.append(inner) }
            else { out.append([Run(text: "[", style: env.style)] + inner + [Run(text: "]", style: env.style)]) }
        case .toggle:
            let mark = (n.isOn ?? false) ? "[x]" : "[ ]"
            var inner = join(contentItems(n, env))
            if inner.isEmpty, let t = n.text ?? n.action?.title { inner = [Run(text: env.display(t), style: env.style)] }
            if n.style == "button" {
                // `.toggleStyle(.button)`: a button, marked while on.
                let on = (n.isOn ?? false) ? [Run(text: "✓ ", style: env.style)] : []
                out.append([Run(text: "[", style: env.style)] + on + inner + [Run(text: "]", style: env.style)])
                return
            }
            out.append([Run(text: mark, style: env.style)] + (inner.isEmpty ? [] : [Run(text: " ", style: RunStyle())] + inner))
        case .spacer, .divider, .shape, .color, .empty:
            return
        default:
            for c in limited(n) { collect(c, env, into: &out) }
        }
    }

    /// The current value of a progress view or gauge: its `currentValueLabel`, else "62%";
    /// "◌" when indeterminate. Coloured by the tint.
    private mutating func valueItem(_ n: ViewNode, _ env: RenderEnv) -> InlineItem {
        if let cv = n.childNodes.first(where: { $0.role == "currentValueLabel" }) {
            let item = join(items(cv, env))
            if !item.isEmpty { return item }
        }
        var style = env.style
        if let t = env.tint { style.foreground = t }
        guard let f = TreeQuery.fraction(of: n, now: env.options.now) else { return [Run(text: "◌", style: style)] }
        return [Run(text: env.display(LiveDateFormatter.percent(f)), style: style)]
    }

    /// The items of a label: icon then title (roles `icon`/`title`, or `symbol`/`text`).
    mutating func labelParts(_ n: ViewNode, _ env: RenderEnv) -> [InlineItem] {
        var parts: [InlineItem] = []
        if let s = n.symbol { parts.append([Run(text: env.glyph(s), style: env.style)]) }
        let kids = limited(n)
        if kids.contains(where: { $0.role == "icon" || $0.role == "title" }) {
            for role in ["icon", "title"] {
                for c in kids where c.role == role { parts += items(c, env) }
            }
        } else {
            for c in kids { parts += items(c, env) }
        }
        if let t = n.text, !t.isEmpty { parts.append([Run(text: env.display(t), style: env.style)]) }
        return parts
    }

    private mutating func contentItems(_ n: ViewNode, _ env: RenderEnv) -> [InlineItem] {
        var parts: [InlineItem] = []
        for c in limited(n) { parts += items(c, env) }
        return parts
    }

    /// The lines of `node` for the multi-line accessory families: the children of vertical
    /// containers (VStack, group, ZStack) become lines, any other node one line; linear
    /// progress views and gauges become a label line and a bar line.
    mutating func lines(_ n: ViewNode, _ parent: RenderEnv) -> [AccessoryLine] {
        var out: [AccessoryLine] = []
        collectLines(n, parent, into: &out)
        return out
    }

    private mutating func collectLines(_ n: ViewNode, _ parent: RenderEnv, into out: inout [AccessoryLine]) {
        guard budget > 0, parent.depth < RenderLimits.maxDepth, out.count < 16 else { return }
        let env = parent.applying(n.modifiers)
        if n.modifiers?.hidden == true || n.role == "widgetLabel" { return }
        switch n.textOutputLabel == nil ? n.kind : .text {  // a labelled element is one line: its label
        case .vstack, .group, .zstack, .link, .unknown, .grid, .lazyVGrid:
            budget -= 1
            for c in limited(n) { collectLines(c, env, into: &out) }
        case .progress where !Self.isCircular(n), .gauge where !Self.isCircular(n):
            budget -= 1
            var label: [InlineItem] = []
            for c in limited(n) where c.role == "label" || (n.kind == .progress && c.role == nil) {
                label += items(c, env)
            }
            if !label.isEmpty { out.append(.items(label)) }
            out.append(.bar(TreeQuery.fraction(of: n, now: env.options.now) ?? 0))
        default:
            let it = items(n, parent)
            if !it.isEmpty { out.append(.items(it)) }
        }
    }

    static func isCircular(_ n: ViewNode) -> Bool {
        (n.style ?? "").lowercased().contains("circular")
    }

    private func limited(_ n: ViewNode) -> ArraySlice<ViewNode> {
        (n.children ?? []).prefix(RenderLimits.maxChildren)
    }

    /// Items joined with plain single spaces.
    func join(_ items: [InlineItem]) -> InlineItem {
        var out: InlineItem = []
        for (i, item) in items.enumerated() where !item.isEmpty {
            if i > 0 && !out.isEmpty { out.append(Run(text: " ", style: RunStyle())) }
            out += item
        }
        return out
    }

    /// `runs` cut to `width` columns, ending in "…" when something had to go; adjacent runs
    /// of one style merged.
    static func fit(_ runs: InlineItem, width: Int) -> InlineItem {
        var merged: InlineItem = []
        for r in runs where !r.text.isEmpty {
            if let last = merged.last, last.style == r.style { merged[merged.count - 1].text += r.text } else { merged.append(r) }
        }
        let total = merged.reduce(0) { $0 + displayWidth(of: $1.text) }
        guard total > width else { return merged }
        guard width > 0 else { return [] }
        var out: InlineItem = []
        var left = width - 1
        for r in merged where left > 0 {
            var piece = ""
            for c in r.text {
                let w = displayWidth(of: c)
                if w > left { left = 0; break }
                piece.append(c); left -= w
            }
            if !piece.isEmpty { out.append(Run(text: piece, style: r.style)) }
        }
        // "Steps…" reads better than "Steps …".
        while let last = out.last, last.text.last == " " {
            out[out.count - 1].text.removeLast()
            if out[out.count - 1].text.isEmpty { out.removeLast() }
        }
        if out.isEmpty { return [Run(text: "…", style: RunStyle())] }
        out[out.count - 1].text += "…"
        return out
    }
}
