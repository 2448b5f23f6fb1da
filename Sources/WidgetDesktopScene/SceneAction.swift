import WidgetHostCore

/// What the surface does after an input event, decided by the scene and performed by the
/// executable (`widgethost-desktop`): the scene itself never talks to the host or starts a
/// program. Value type.
public enum SceneAction: Equatable, Sendable {
    /// Where a dragged widget goes in the grid order (`widgethost move ID --before OTHER | --to N`).
    public enum MoveTarget: Equatable, Sendable {
        /// Just before the widget `id`.
        case before(String)
        /// At this index of the grid order after the move (0-based; the last index: the end).
        case index(Int)
    }

    case nothing
    /// A click on widget `id`: on the control `target` (a `Button(intent:)` or `Toggle`'s
    /// `action.id`, what the host's `click` op takes), or, with no target, on the widget itself
    /// (its `widgetURL`).
    case click(id: String, target: String?)
    /// "Edit Widget": the editor's form for `id`.
    case editWidget(id: String)
    /// "Remove Widget", or the remove badge in edit mode.
    case removeWidget(id: String)
    /// A widget dragged to another grid place in edit mode.
    case move(id: String, to: MoveTarget)
    /// "Add Widget…": the gallery.
    case openGallery

    /// The control-socket request of a `click`: button 1 with the target, or button 3 without
    /// one (the host opens the widget's URL; button 1 without a target would run the first
    /// control, `InteractionTargets.resolve`). Nil for the other actions.
    public var controlRequest: ControlRequest? {
        guard case .click(let id, let target) = self else { return nil }
        return target.map { ControlRequest(op: .click, id: id, button: 1, target: $0) } ?? ControlRequest(op: .click, id: id, button: 3)
    }
}

/// What is under a point of the surface. Value type.
public enum SceneHit: Equatable, Sendable {
    /// A control of widget `id`: `target` is its `action.id`, as the host's `click` op takes it.
    case control(id: String, target: String)
    /// Widget `id` outside any control (a click opens its `widgetURL`).
    case widget(id: String)
}
