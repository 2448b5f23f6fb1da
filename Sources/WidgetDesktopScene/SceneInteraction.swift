import OpenWidgetKit
import WidgetHostCore

/// The surface's input state machine: clicks, the context menu, edit mode, dragging and keyboard
/// focus. Fed `PointerEvent`s and `KeyEvent`s (positions in the area's points), it returns a
/// `SceneAction` for the executable to perform and keeps what the scene draws (the open menu,
/// edit mode's badges and drop slot, the focus ring).
///
/// - A button-1 press and release on a widget (shorter than `longPress`) clicks what was under
///   the press: a control's target, else the widget itself.
/// - Button 3, or a press held `longPress` ms or more (by the events' own times, without moving
///   more than `slop`), opens the menu on the widget; a row clicked performs it ("Edit Home
///   Screen" enters edit mode; the others become actions); a press outside closes it.
/// - In edit mode a widget is dragged (after moving `slop`) to another grid place (`DropSlot`),
///   released it yields `.move`; its remove badge yields `.removeWidget`; a press outside every
///   widget, or Escape, ends edit mode — but for the edit mode of an open gallery
///   (`setGalleryOpen`), which only Escape or the gallery's closing ends.
/// - Keyboard: Tab / Shift+Tab move the focus between widgets in grid order, Menu (the backend
///   reports Shift+F10 as `.menu`) opens the menu on the focused widget, Up/Down choose a row,
///   Enter/Space activate it (or click the focused widget), Escape closes the menu, then ends edit
///   mode, then drops the focus; in edit mode Delete removes the focused widget and Left/Right
///   move it one place.
///
/// Value type; used on the surface's thread.
public struct SceneInteraction: Equatable, Sendable {
    /// What the machine needs to know of the scene for one event.
    public struct Context {
        public var placement: DesktopPlacement
        public var layout: DesktopViewMessage.Layout
        /// What a click at an area point hits (controls resolved from the widget's laid-out tree).
        public var hit: (Double, Double) -> SceneHit?
        public init(placement: DesktopPlacement, layout: DesktopViewMessage.Layout, hit: @escaping (Double, Double) -> SceneHit?) {
            self.placement = placement; self.layout = layout; self.hit = hit
        }
    }

    /// A widget being dragged in edit mode.
    public struct Drag: Equatable, Sendable {
        public var id: String
        /// The pointer, and where in the widget it grabbed it (area points).
        public var x: Double, y: Double
        public var grabX: Double, grabY: Double
        /// Where it would land now.
        public var slot: DropSlot?
    }

    struct Press: Equatable, Sendable {
        var id: String?
        var x: Double, y: Double
        var time: UInt32
        var button: Int
        var onBadge = false
        var inMenu = false
    }

    /// Milliseconds a press is held to open the menu (touch screens).
    public static let longPress: UInt32 = 500
    /// Points a pointer moves before a press becomes a drag (or stops being a click).
    public static let slop = 6.0
    /// The remove badge's diameter, and its inset from the widget's top-left corner.
    public static let badgeSize = 22.0
    public static let badgeInset = 4.0

    public private(set) var editing = false
    /// Edit mode is on because an "Add Widget" gallery is open (`setGalleryOpen`), not because
    /// the person chose "Edit Home Screen": it ends when the gallery closes, and it leaves the
    /// keyboard to the gallery.
    public private(set) var editingForGallery = false
    public private(set) var menu: ContextMenu?
    /// The widget with keyboard focus (drawn with a focus ring).
    public private(set) var focus: String?
    public private(set) var drag: Drag?
    private var press: Press?
    /// Counts changes to what is drawn (menu, edit mode, drag, focus).
    public private(set) var generation = 0

    public init() {}

    /// Whether the surface wants keyboard input (a menu, edit mode or a focused widget).
    public var wantsKeyboard: Bool { (editing && !editingForGallery) || menu != nil || focus != nil }

    /// Whether input should reach the surface over its whole area (a menu is open or edit mode
    /// is on: a click outside the widgets closes them) rather than the widgets' rectangles only.
    public var capturesArea: Bool { editing || menu != nil }

    /// The remove badge of a widget of `frame` in edit mode (area points).
    public static func badgeFrame(of frame: LogicalRect) -> LogicalRect {
        LogicalRect(x: frame.x + badgeInset, y: frame.y + badgeInset, width: badgeSize, height: badgeSize)
    }

    // MARK: pointer

    public mutating func pointer(_ e: PointerEvent, _ c: Context) -> SceneAction {
        switch e.kind {
        case .press(let button): return pressed(button, e, c)
        case .release(let button): return released(button, e, c)
        case .motion: return moved(e, c)
        case .leave:
            if drag != nil { drag = nil; changed() }
            press = nil
            if menu?.highlighted != nil { menu?.highlighted = nil; changed() }
            return .nothing
        }
    }

    private mutating func pressed(_ button: Int, _ e: PointerEvent, _ c: Context) -> SceneAction {
        let widget = c.placement.widget(atX: e.x, y: e.y)
        if let m = menu {
            if m.contains(x: e.x, y: e.y) {
                press = Press(id: m.widgetID, x: e.x, y: e.y, time: e.time, button: button, inMenu: true)
            } else {
                menu = nil; changed(); press = nil
            }
            return .nothing
        }
        guard let widget else {
            press = nil
            // The gallery's edit mode stays while it is open: a stray click must not end the
            // drops anywhere on the grid (Escape still does).
            if editing, !editingForGallery { editing = false; changed() }
            return .nothing
        }
        if button == 3 {
            openMenu(on: widget.id, x: e.x, y: e.y, c)
            return .nothing
        }
        guard button == 1 else { return .nothing }
        var p = Press(id: widget.id, x: e.x, y: e.y, time: e.time, button: button)
        if editing { p.onBadge = Self.badgeFrame(of: widget.frame).contains(x: e.x, y: e.y) }
        press = p
        return .nothing
    }

    private mutating func moved(_ e: PointerEvent, _ c: Context) -> SceneAction {
        if var m = menu {
            let row = m.row(atX: e.x, y: e.y)
            if row != m.highlighted { m.highlighted = row; menu = m; changed() }
            return .nothing
        }
        if var d = drag {
            d.x = e.x; d.y = e.y
            d.slot = DropSlot(id: d.id, x: e.x, y: e.y, placement: c.placement, layout: c.layout)
            drag = d
            changed()
            return .nothing
        }
        guard let p = press, let id = p.id, p.button == 1 else { return .nothing }
        let far = hypot2(e.x - p.x, e.y - p.y) > Self.slop * Self.slop
        if editing {
            guard far, !p.onBadge, let f = c.placement.frame(of: id) else { return .nothing }
            drag = Drag(id: id, x: e.x, y: e.y, grabX: p.x - f.x, grabY: p.y - f.y,
                        slot: DropSlot(id: id, x: e.x, y: e.y, placement: c.placement, layout: c.layout))
            press = nil
            changed()
        } else if far {
            press = nil
        } else if held(p, until: e.time) {
            openMenu(on: id, x: p.x, y: p.y, c)
        }
        return .nothing
    }

    private mutating func released(_ button: Int, _ e: PointerEvent, _ c: Context) -> SceneAction {
        defer { press = nil }
        if let d = drag {
            drag = nil
            changed()
            let slot = DropSlot(id: d.id, x: e.x, y: e.y, placement: c.placement, layout: c.layout)
            return slot?.move.map { .move(id: d.id, to: $0) } ?? .nothing
        }
        guard let p = press, p.button == button else { return .nothing }
        if p.inMenu, let m = menu {
            guard let row = m.row(atX: e.x, y: e.y), row == m.row(atX: p.x, y: p.y) else { return .nothing }
            return perform(m.commands[row], on: m.widgetID)
        }
        guard let id = p.id, c.placement.widget(atX: e.x, y: e.y)?.id == id else { return .nothing }
        if editing {
            if p.onBadge, let f = c.placement.frame(of: id), Self.badgeFrame(of: f).contains(x: e.x, y: e.y) { return .removeWidget(id: id) }
            return .nothing
        }
        if held(p, until: e.time) {
            openMenu(on: id, x: p.x, y: p.y, c)
            return .nothing
        }
        switch c.hit(p.x, p.y) {
        case .control(let wid, let target)? where wid == id: return .click(id: id, target: target)
        default: return .click(id: id, target: nil)
        }
    }

    private func held(_ p: Press, until time: UInt32) -> Bool { time &- p.time >= Self.longPress && time &- p.time < 1 << 31 }

    private func hypot2(_ dx: Double, _ dy: Double) -> Double { dx * dx + dy * dy }

    // MARK: keys

    public mutating func key(_ e: KeyEvent, _ c: Context) -> SceneAction {
        let ids = c.placement.widgets.map(\.id)
        if var m = menu {
            let n = m.commands.count
            switch e.key {
            case .down, .tab: m.highlighted = ((m.highlighted ?? -1) + 1) % n; menu = m; changed()
            case .up, .backTab: m.highlighted = ((m.highlighted ?? n) - 1 + n) % n; menu = m; changed()
            case .enter, .space:
                guard let row = m.highlighted else { return .nothing }
                return perform(m.commands[row], on: m.widgetID)
            case .escape, .menu: menu = nil; changed()
            default: break
            }
            return .nothing
        }
        switch e.key {
        case .tab, .backTab:
            guard !ids.isEmpty else { return .nothing }
            let i = focus.flatMap { ids.firstIndex(of: $0) }
            let forward = e.key == .tab
            let next = i.map { (forward ? $0 + 1 : $0 - 1 + ids.count) % ids.count } ?? (forward ? 0 : ids.count - 1)
            focus = ids[next]; changed()
        case .menu:
            guard let id = focus ?? ids.first, let f = c.placement.frame(of: id) else { return .nothing }
            focus = id
            openMenu(on: id, x: f.x + 12, y: f.y + 12, c)
        case .enter, .space:
            guard let id = focus, ids.contains(id), !editing else { return .nothing }
            return .click(id: id, target: nil)
        case .delete:
            guard editing, let id = focus, ids.contains(id) else { return .nothing }
            return .removeWidget(id: id)
        case .left, .right:
            guard editing, let id = focus else { return .nothing }
            let order = c.layout.widgets.filter { ids.contains($0) }
            guard let i = order.firstIndex(of: id) else { return .nothing }
            if e.key == .left { return i > 0 ? .move(id: id, to: .before(order[i - 1])) : .nothing }
            guard i + 1 < order.count else { return .nothing }
            return i + 2 < order.count ? .move(id: id, to: .before(order[i + 2])) : .move(id: id, to: .index(max(0, c.layout.widgets.count - 1)))
        case .escape:
            if editing { editing = false; editingForGallery = false; drag = nil } else { focus = nil }
            changed()
        default: break
        }
        return .nothing
    }

    // MARK: menu

    private mutating func openMenu(on id: String, x: Double, y: Double, _ c: Context) {
        let area = c.placement.area ?? LogicalRect(x: 0, y: 0, width: 0, height: 0)
        menu = ContextMenu(widgetID: id, x: x, y: y, areaWidth: area.width, areaHeight: area.height)
        press = nil
        changed()
    }

    private mutating func perform(_ command: ContextMenu.Command, on id: String) -> SceneAction {
        menu = nil
        changed()
        switch command {
        // The editor's window is next: the surface lets go of the keyboard (while it holds a
        // focus the X11 surface grabs it, and the editor's menus could not open).
        case .editWidget: focus = nil; return .editWidget(id: id)
        case .removeWidget: return .removeWidget(id: id)
        case .editHomeScreen: editing = true; editingForGallery = false; focus = focus ?? id; return .nothing
        case .addWidget: focus = nil; return .openGallery
        }
    }

    /// A widget dragged in from another program (the gallery) over the surface of `output`:
    /// where it would land (`DropSlot(adding:)`); the scene draws the slot and the widgets
    /// making way as edit mode's drag does.
    public struct Incoming: Equatable, Sendable {
        public var output: DisplayOutput.ID
        public var slot: DropSlot
    }

    public private(set) var incoming: Incoming?
    /// The id the incoming widget has in its slot's `preview` (no widget id can hold a NUL).
    public static let incomingID = "\u{0}incoming"

    /// The incoming drag of a `family` widget is at area point (`x`, `y`) of `output`; returns
    /// its slot (nil: no grid there).
    @discardableResult
    public mutating func dragIn(family: WidgetFamily, output: DisplayOutput.ID, x: Double, y: Double, _ c: Context) -> DropSlot? {
        let next = DropSlot(adding: family, id: Self.incomingID, x: x, y: y, placement: c.placement, layout: c.layout).map { Incoming(output: output, slot: $0) }
        if next != incoming { incoming = next; changed() }
        return next?.slot
    }

    /// The incoming drag left the surface, was dropped or cancelled.
    public mutating func dragInEnded() {
        if incoming != nil { incoming = nil; changed() }
    }

    /// Ends edit mode and closes the menu (a new snapshot, the widget removed); edit mode kept on
    /// for an open gallery stays.
    public mutating func reset() {
        let forGallery = editing && editingForGallery
        if (editing && !forGallery) || menu != nil || drag != nil { changed() }
        editing = forGallery; editingForGallery = forGallery; menu = nil; drag = nil; press = nil
    }

    /// An "Add Widget" gallery opened or closed (its bus name got or lost an owner). Opened: edit
    /// mode begins, unless it is on already (then it stays the person's); closed: edit mode the
    /// gallery began ends, the person's stays.
    public mutating func setGalleryOpen(_ open: Bool) {
        if open, !editing {
            editing = true; editingForGallery = true; changed()
        } else if !open, editingForGallery {
            editing = false; editingForGallery = false; drag = nil; press = nil; changed()
        }
    }

    private mutating func changed() { generation &+= 1 }
}
