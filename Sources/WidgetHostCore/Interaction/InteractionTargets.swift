import OpenWidgetKit

/// What a click on a widget does, decided from the entry on screen. Pure.
///
/// - `target` given: the `Button(intent:)`/`Toggle(isOn:intent:)` whose `action.id`, intent
///   title or label text (case-insensitive) it names; no such control is an error.
/// - no target, left button (1, or none given): the entry's first control when it has one;
///   otherwise, and for every other button, the entry's `widgetURL` or first `Link`.
public enum InteractionTargets {
    public enum Resolution: Equatable, Sendable {
        case perform(IntentAction)
        case open(String)
        case nothing(String)
    }

    /// Every control of a tree, in tree order.
    public static func actions(in view: ViewNode) -> [(node: ViewNode, action: IntentAction)] {
        var out: [(ViewNode, IntentAction)] = []
        view.walk { n in if let a = n.action { out.append((n, a)) } }
        return out
    }

    public static func controls(in view: ViewNode) -> [HostStatus.Control] {
        actions(in: view).map { n, a in
            HostStatus.Control(id: a.id, title: a.title ?? label(of: n), intent: a.intent, kind: n.kind.rawValue, isOn: n.isOn)
        }
    }

    /// The text of a control's label (its first text descendant), as a fallback title.
    static func label(of node: ViewNode) -> String? {
        var t: String?
        node.walk { n in if t == nil, let s = n.text, !s.isEmpty { t = s } }
        return t
    }

    /// The entry's `widgetURL`, else its first `Link` destination.
    public static func url(in view: ViewNode) -> String? {
        var url: String?
        view.walk { n in if url == nil { url = n.mods.widgetURL } }
        if url == nil { view.walk { n in if url == nil, n.kind == .link { url = n.url } } }
        return url
    }

    public static func resolve(_ view: ViewNode, button: Int?, target: String?) -> Resolution {
        let all = actions(in: view)
        if let target, !target.isEmpty {
            let t = target.lowercased()
            if let hit = all.first(where: { $0.action.id == target })
                ?? all.first(where: { $0.action.title?.lowercased() == t || label(of: $0.node)?.lowercased() == t }) {
                return .perform(hit.action)
            }
            let known = all.map { "\($0.action.id) (\($0.action.title ?? label(of: $0.node) ?? $0.action.intent))" }
            return .nothing("no control \"\(target)\" in the current entry" + (known.isEmpty ? " (it has none)" : "; controls: " + known.joined(separator: ", ")))
        }
        if (button ?? 1) == 1, let first = all.first { return .perform(first.action) }
        if let url = url(in: view) { return .open(url) }
        return .nothing("the current entry has no control and no URL")
    }
}
