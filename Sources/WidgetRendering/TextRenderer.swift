import FoundationEssentials
import OpenWidgetKit

/// Renders a view tree as plain text for a widget family.
///
/// - `accessoryInline`: exactly one line — texts, labels and symbols joined with spaces,
///   stacks flattened, progress as "62%" — cut with "…" to the inline width.
/// - `accessoryRectangular`: at most 3 lines: the grid layout when it fits in three lines
///   (an icon beside a VStack stays beside it), else the children of vertical containers
///   become lines (progress views a bar across the width), each cut with "…" to the width.
/// - `accessoryCircular`: at most 2 short lines: a gauge or progress as "◔ 5" / "◑ 62%" over
///   its label, otherwise the first lines of the content.
/// - system families: the tree laid out on the family's `cellGrid` (see `GridLayout`) — one
///   line per row, trailing blanks trimmed, none wider than the grid.
///
/// Redaction (root `redacted`, a `redacted` subtree, or `options.redact`) turns letters and
/// digits into "▒". Never traps and never allocates beyond the grid, whatever the tree.
/// A pure function: safe from any thread.
public enum TextRenderer {
    public static func render(_ node: ViewNode, family: WidgetFamily, options: RenderOptions = RenderOptions()) -> String {
        switch family {
        case .accessoryInline:
            return inlineRuns(node, options: options).map(\.text).joined()
        case .accessoryRectangular:
            // Side-by-side content (an icon beside two lines) keeps its shape when the grid
            // layout fits in three lines; anything taller falls back to one line per child.
            // Laid out on a grid taller than the family's, so content is never clipped into fitting.
            var tall = options
            tall.size = GridSize(columns: options.grid(for: family).columns, rows: 16)
            let laidOut = grid(node, family: family, options: tall).filter { !$0.allSatisfy(\.isWhitespace) }
            if !laidOut.isEmpty && laidOut.count <= 3 {
                let indent = laidOut.map { $0.prefix(while: { $0 == " " }).count }.min() ?? 0
                return laidOut.map { String($0.dropFirst(indent)) }.joined(separator: "\n")
            }
            let width = options.grid(for: family).columns
            return accessoryLines(node, options: options, width: width, maxLines: 3).joined(separator: "\n")
        case .accessoryCircular:
            return circular(node, options: options).joined(separator: "\n")
        default:
            return grid(node, family: family, options: options).joined(separator: "\n")
        }
    }

    /// The one-line summary of a widget of `family` (a bar's text): the inline rendering, cut to
    /// the inline width for `accessoryInline` and to `RenderOptions.barLineWidth` otherwise.
    public static func oneLine(_ node: ViewNode, family: WidgetFamily, options: RenderOptions = RenderOptions()) -> String {
        inlineRuns(node, family: family, options: options).map(\.text).joined()
    }

    /// The one-line rendering as styled runs (Pango and waybar build on it).
    static func inlineRuns(_ node: ViewNode, family: WidgetFamily = .accessoryInline, options: RenderOptions) -> [Run] {
        var f = InlineFlattener()
        f.width = options.inlineWidth(for: family)
        let env = RenderEnv(root: node, options: options)
        return InlineFlattener.fit(f.join(f.items(node, env)), width: f.width)
    }

    /// The rows of the system-family layout.
    static func grid(_ node: ViewNode, family: WidgetFamily, options: RenderOptions) -> [String] {
        let g = options.grid(for: family)
        var b = GridBuilder()
        var root = b.build(node, RenderEnv(root: node, options: options), axis: nil)
        // The content margins the SDK put on the root (16 pt on the home-screen families, zero
        // after `.contentMarginsDisabled()`; absent from trees of older SDKs).
        if let m = node.modifiers?.contentMargins {
            let t = GridBuilder.rows(m.top) ?? 0, l = GridBuilder.columns(m.leading) ?? 0
            let bo = GridBuilder.rows(m.bottom) ?? 0, r = GridBuilder.columns(m.trailing) ?? 0
            if t + l + bo + r > 0 { root = LayoutNode(.padding(top: t, leading: l, bottom: bo, trailing: r), [root]) }
        }
        return GridLayout.render(root, columns: g.columns, rows: g.rows)
    }

    static func accessoryLines(_ node: ViewNode, options: RenderOptions, width: Int, maxLines: Int) -> [String] {
        var f = InlineFlattener()
        let lines = f.lines(node, RenderEnv(root: node, options: options))
        return lines.prefix(maxLines).map { line in
            switch line {
            case .items(let items):
                return InlineFlattener.fit(f.join(items), width: width).map(\.text).joined()
            case .bar(let fraction):
                let filled = min(max(Int(saturating: (min(max(fraction, 0), 1) * Double(width)).rounded()), 0), width)
                return String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
            }
        }
    }

    /// The accessoryCircular lines: the content's, with a `widgetLabel` (if any) as the last
    /// of the two lines, as iOS shows it under the gauge.
    static func circular(_ node: ViewNode, options: RenderOptions) -> [String] {
        var lines = circularContent(node, options: options)
        guard let label = TreeQuery.first(in: node, where: { $0.role == "widgetLabel" }) else { return lines }
        let width = options.grid(for: .accessoryCircular).columns
        var f = InlineFlattener()
        var unlabelled = label
        unlabelled.role = nil
        let text = InlineFlattener.fit(f.join(f.items(unlabelled, RenderEnv(root: node, options: options))), width: width).map(\.text).joined()
        guard !text.isEmpty else { return lines }
        lines = Array(lines.prefix(1)) + [text]
        return lines
    }

    static func circularContent(_ node: ViewNode, options: RenderOptions) -> [String] {
        let width = options.grid(for: .accessoryCircular).columns
        let env = RenderEnv(root: node, options: options)
        var f = InlineFlattener()
        guard let gauge = TreeQuery.first(in: node, where: { ($0.kind == .gauge || $0.kind == .progress) && $0.modifiers?.hidden != true }),
              let fraction = TreeQuery.fraction(of: gauge, now: options.now) else {
            return accessoryLines(node, options: options, width: width, maxLines: 2)
        }
        // Style modifiers between the root and the gauge do not matter for plain text, except
        // redaction, which `env` carries from the root.
        let genv = env.applying(gauge.modifiers)
        var value = gauge.childNodes.first { $0.role == "currentValueLabel" }
            .map { f.join(f.items($0, genv)).map(\.text).joined() } ?? ""
        if value.isEmpty { value = genv.display(LiveDateFormatter.percent(fraction)) }
        var lines = [(TreeQuery.pie(fraction) + " " + value).truncated(toWidth: width)]
        let label = gauge.childNodes.filter { $0.role == "label" }.flatMap { f.items($0, genv) }
        if !label.isEmpty { lines.append(InlineFlattener.fit(f.join(label), width: width).map(\.text).joined()) }
        return lines
    }
}
