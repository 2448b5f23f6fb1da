import FoundationEssentials
import OpenWidgetKit
import WidgetRendering

/// A laid-out tree brought to a later instant without laying it out again, when that is exact:
/// a ticking clock's `Text(date, style: .timer)` reads "10:42:18" a second after "10:42:17",
/// and in a font whose digits measure alike every frame stays where it was; only the string
/// changes. Laying the whole tree out again for it was most of a desktop clock's tick.
///
/// Exact, not approximate: a layout reads a text only through its measurer's answers, so when
/// the measurer vouches (`TextMeasurer.measuresAlike`) that the new string answers every
/// question as the old one did, `LayoutEngine` at the later instant would place every node
/// where it is and write the new string; anything else (a live date on a node other than a
/// text or a progress view, a string the measurer does not vouch for) gives nil, and the caller
/// lays the tree out. A progress view's live interval is read when it is painted (at the
/// instant the caller paints for), not by the layout.
///
/// Pure: no I/O, no state; the measurer is asked only `measuresAlike`. Threading: as
/// `LayoutEngine` (the measurer is used on the caller's thread).
public enum LiveTextRestamp {
    /// `placed`, as `LayoutEngine(measurer:now:locale:)` would lay out its tree at `now`, or
    /// nil when that takes a layout. `placed` must come from a layout with the same measurer,
    /// locale and bounds.
    public static func restamp(_ placed: PlacedNode, now: Date, locale: LocaleFormats, measurer: any TextMeasurer) -> PlacedNode? {
        var node = placed
        return restamp(&node, now: now, locale: locale, measurer: measurer, depth: 0) ? node : nil
    }

    /// Writes each live text of `p`'s subtree at `now`; false when a change is not exact.
    private static func restamp(_ p: inout PlacedNode, now: Date, locale: LocaleFormats, measurer: any TextMeasurer, depth: Int) -> Bool {
        guard depth <= LayoutLimits.maxDepth else { return false }
        let n = p.node
        if n.kind == .text {
            let runs = LayoutBoxBuilder.builtChildren(n)
            if n.date != nil || runs.contains(where: { $0.role == "run" && $0.date != nil }) {
                guard var t = p.text else { return false }
                let string = LayoutBoxBuilder.written(n, runs: runs, textCase: t.textCase, now: now, locale: locale)
                if string != t.string {
                    guard measurer.measuresAlike(t.string, string, font: t.font) else { return false }
                    t.string = string
                    p.text = t
                }
            }
        } else if n.date != nil && n.kind != .progress {
            return false
        }
        for i in p.children.indices {
            guard restamp(&p.children[i], now: now, locale: locale, measurer: measurer, depth: depth + 1) else { return false }
        }
        return true
    }
}
