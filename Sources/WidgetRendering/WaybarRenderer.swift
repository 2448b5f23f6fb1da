import OpenWidgetKit

/// The JSON object waybar's `custom` module reads (`return-type: json`): `text`, `alt`,
/// `tooltip`, `class`, `percentage`. The host adds its own keys (kind, date, stale…) around it.
public struct WaybarOutput: Codable, Hashable, Sendable {
    /// The one-line rendering (Pango markup when the module has `escape: false`; plain here).
    public var text: String
    /// The widget-chosen alternative, for `format-icons`: the first SF Symbol name in the tree,
    /// else the root node's kind.
    public var alt: String
    /// The multi-line rendering for the family (blank leading and trailing rows dropped).
    public var tooltip: String
    /// CSS classes: the family name, `placeholder` when redacted.
    public var `class`: [String]
    /// 0…100 from the first progress view or gauge in the tree; absent when there is none.
    public var percentage: Int?

    public init(text: String, alt: String, tooltip: String, class: [String], percentage: Int?) {
        self.text = text; self.alt = alt; self.tooltip = tooltip; self.class = `class`; self.percentage = percentage
    }
}

/// Renders a tree as a `WaybarOutput`. A pure function: safe from any thread.
public enum WaybarRenderer {
    public static func render(_ node: ViewNode, family: WidgetFamily, options: RenderOptions = RenderOptions()) -> WaybarOutput {
        renderWithMarkup(node, family: family, options: options).output
    }

    /// The waybar fields and the Pango markup of the same one-line rendering
    /// (`PangoRenderer.render`), laying the line out once: the host renders both on every entry
    /// swap, and for `accessoryInline` the tooltip is that line too (three layouts became one).
    /// `facts` are the tree's, from the one walk the fields came from (the host reads the URL
    /// and background there).
    public static func renderWithMarkup(_ node: ViewNode, family: WidgetFamily,
                                        options: RenderOptions = RenderOptions())
        -> (output: WaybarOutput, markup: String, facts: TreeFacts) {
        let runs = TextRenderer.inlineRuns(node, family: family, options: options)
        var text = "", markup = ""
        for r in runs {
            text += r.text
            markup += PangoRenderer.markup(r, palette: options.palette)
        }
        let multiline = family == .accessoryInline ? text : TextRenderer.render(node, family: family, options: options)
        // One line (an inline family, most bar widgets): the tooltip is the line itself. Splitting
        // by Character was 14 % of a clock tick's instructions (issue 16).
        var tooltip = multiline
        if multiline.utf8.contains(0x0A) {
            var rows = multiline.split(separator: "\n", omittingEmptySubsequences: false)
            while rows.first?.isEmpty == true { rows.removeFirst() }
            while rows.last?.isEmpty == true { rows.removeLast() }
            tooltip = rows.joined(separator: "\n")
        }
        let facts = TreeQuery.facts(of: node)
        let alt = facts.firstSymbol ?? node.kind.rawValue
        var classes = [family.rawValue]
        if options.redact != false && (options.isPlaceholder(node) || facts.anyRedactedModifier) {
            classes.insert("placeholder", at: 0)
        }
        let percentage = facts.firstMeter
            .flatMap { TreeQuery.fraction(of: $0, now: options.now) }
            .map { min(max(Int(saturating: ($0 * 100).rounded()), 0), 100) }
        return (WaybarOutput(text: text, alt: alt, tooltip: tooltip, class: classes, percentage: percentage), markup, facts)
    }
}
