import WidgetLayout

/// Which control of a laid-out widget is under a point: the topmost (last in tree order)
/// `Button(intent:)` or `Toggle(isOn:intent:)` whose frame holds it — the controls and target
/// strings of the render process's `PictureRegions` (`action.id`). A `Link` or any other point
/// is the widget itself (a click opens its `widgetURL`, as the GTK surface did). Pure; any thread.
public enum WidgetHitTest {
    /// The `action.id` of the control at widget point (`x`, `y`), nil when none.
    public static func target(in placed: PlacedNode, x: Double, y: Double) -> String? {
        guard x.isFinite, y.isFinite else { return nil }
        var hit: String?
        placed.walk { p in
            guard p.node.kind == .button || p.node.kind == .toggle, let id = p.node.action?.id else { return }
            let f = p.frame
            if x >= f.x, y >= f.y, x < f.maxX, y < f.maxY { hit = id }
        }
        return hit
    }

    /// Every control's frame and target, in tree order (for keyboard focus and tests).
    public static func controls(in placed: PlacedNode) -> [(target: String, frame: Rect)] {
        var out: [(target: String, frame: Rect)] = []
        placed.walk { p in
            if p.node.kind == .button || p.node.kind == .toggle, let id = p.node.action?.id { out.append((target: id, frame: p.frame)) }
        }
        return out
    }
}
