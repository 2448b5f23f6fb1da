import CCairo
import FoundationEssentials
import OpenWidgetKit
import WidgetGraphics
import WidgetHostCore
import WidgetLayout
import WidgetRendering

/// The lean desktop surface's picture (docs/architecture.md "The desktop program"): the
/// widgets of the host's view stream (`DesktopViewMessage`) placed on each output's grid
/// (`DesktopPlacement`), laid out (`WidgetLayout`) and drawn (`WidgetGraphics`) into the
/// buffers a `DisplayBackend` lends, redrawing only what changed:
///
/// - a changed tree damages the rectangles of its placed nodes that changed
///   (`PlacedTreeDamage`); a live date (`Text(date, style: .timer)`) ticks without a message:
///   `nextTick(after:)` says when, `tick(now:)` lays it out again and damages what moved;
/// - `draw(into:)` redraws the damage of the new frame and, for a buffer of age N, of the N − 1
///   frames before it (`DamageHistory`), and returns the rectangles to `present`;
/// - a stale or not-running widget is dimmed and marked (`WidgetMark`), off its title;
/// - input goes through `SceneInteraction` (clicks, the menu, edit mode, keyboard focus) and
///   comes back as `SceneAction`s for the executable to perform.
///
/// A widget is drawn at a whole-pixel origin with `PictureRenderer.paint`, so its pixels equal a
/// direct `PictureRenderer.render` of the same tree at the buffer's scale.
///
/// Contract with the executable: after `apply`, `setOutputs` or an input event, read
/// `area(on:)` (and call `setArea` when it changed), `inputRegion(on:)`, `wantsKeyboard`, and
/// ask for a buffer on each output where `needsFrame(on:)`; call `invalidate(_:)` when the
/// backend needs every pixel again (an exposed X11 window).
///
/// Threading: the surface's one thread (it owns a `PictureRenderer`). Not `Sendable`.
public final class DesktopScene {
    /// The desktop's own colour scheme (the portal's `color-scheme`), used when the layout's
    /// `dark` is nil. Changing it redraws everything.
    public var desktopDark = false {
        didSet { if oldValue != desktopDark, layout?.dark == nil { invalidateAll() } }
    }
    /// False while no host is connected (the view stream ended): every widget is drawn with
    /// the "not running" mark, as the GTK surface did. Changing it redraws everything.
    public var hostRunning = true {
        didSet { if oldValue != hostRunning { invalidateAll() } }
    }
    /// StandBy (`--standby`): the whole output black, two stacks of widgets drawn large
    /// (`StandByStacks`); nil on the desktop. Changing it places and redraws everything.
    public var standBy: StandByStacks? {
        didSet { if oldValue != standBy { interaction.reset(); replace(damageAll: true) } }
    }
    /// StandBy's night mode: everything drawn in red on black (`NightTint`), for a dark
    /// bedroom. Changing it redraws everything.
    public var night = false {
        didSet { if oldValue != night { invalidateAll() } }
    }
    public private(set) var layout: DesktopViewMessage.Layout?
    public private(set) var interaction = SceneInteraction()
    /// A press on a StandBy stack, kept to tell a vertical swipe from a click.
    private var standByPress: (output: DisplayOutput.ID, stack: Int, y: Double)?

    /// The appearance widgets are drawn in: dark in StandBy (as on an iPhone), else the
    /// layout's `dark`, else the desktop's.
    public var appearance: Appearance { standBy != nil || (layout?.dark ?? desktopDark) ? .dark : .light }

    /// Whether there are widgets and every one has a laid-out view (none waits for its first
    /// entry): what the first frame of a settled desktop draws.
    public var everyWidgetLaidOut: Bool { !widgets.isEmpty && widgets.values.allSatisfy { $0.placed != nil } }

    private let renderer = PictureRenderer(locale: .currentTime)
    private var widgets: [String: SceneWidget] = [:]
    private var outputs: [DisplayOutput.ID: OutputState] = [:]

    struct SceneWidget {
        var message: DesktopViewMessage.Widget
        var placed: PlacedNode?
        var laidOutAt: Date
    }

    /// Damage waiting for the next frame: part of a widget (its points) or of the area.
    enum Pending: Equatable {
        case widget(String, Rect)
        case area(LogicalRect)
    }

    struct OutputState {
        var output: DisplayOutput
        var placement: DesktopPlacement
        /// The widgets placed on it (nil: all of the layout's).
        var ids: [String]?
        var pending: [Pending] = []
        var full = true
        var history = DamageHistory()
        var drawnScale = 0.0
    }

    public init() {}

    // MARK: - Input from the host and the display

    /// Takes one message of the view stream, laid out at `now`: a snapshot replaces everything
    /// (and ends edit mode), a change replaces the widgets it names and takes off `removed`.
    /// Returns whether a placement may have changed (read `area(on:)` and `inputRegion(on:)`
    /// again); what needs drawing is `needsFrame(on:)`.
    @discardableResult
    public func apply(_ message: DesktopViewMessage, now: Date) -> Bool {
        if message.snapshot {
            if let l = message.layout { layout = l }
            widgets = [:]
            for w in message.widgets { widgets[w.id] = SceneWidget(message: w, placed: lay(w, now), laidOutAt: now) }
            interaction.reset()
            replace(damageAll: true)
            return true
        }
        var placementChanged = false
        if let l = message.layout, l != layout { layout = l; invalidateAll(); placementChanged = true }
        for w in message.widgets {
            let new = SceneWidget(message: w, placed: lay(w, now), laidOutAt: now)
            defer { widgets[w.id] = new }
            guard let old = widgets[w.id], old.message.family == w.family else { placementChanged = true; continue }
            if old.message.stale != w.stale || old.message.running != w.running || (old.placed == nil) != (new.placed == nil) {
                damageWhole(w.id)
            } else if let a = old.placed, let b = new.placed {
                damage(w.id, PlacedTreeDamage.damage(from: a, at: old.laidOutAt, to: b, at: now, bounds: bounds(w.family)))
            }
        }
        for id in message.removed where widgets.removeValue(forKey: id) != nil {
            placementChanged = true
            if interaction.menu?.widgetID == id || interaction.drag?.id == id { interaction.reset() }
        }
        if placementChanged { replace(damageAll: false) }
        return placementChanged
    }

    /// The outputs the widgets are shown on and, per output, which of the layout's widgets
    /// (`OutputAssignment`; nil: every one on each output in `list`). An output whose widgets
    /// changed is placed again and redrawn whole.
    public func setOutputs(_ list: [DisplayOutput], widgets assigned: [DisplayOutput.ID: [String]]? = nil) {
        var next: [DisplayOutput.ID: OutputState] = [:]
        for o in list {
            let ids = assigned.map { $0[o.id] ?? [] }
            var s = outputs[o.id] ?? OutputState(output: o, placement: placement(for: o, ids), ids: ids)
            if s.output != o || s.ids != ids { s.output = o; s.ids = ids; s.placement = placement(for: o, ids); s.full = true }
            next[o.id] = s
        }
        outputs = next
    }

    /// Lays out again every widget whose live dates read differently at `now` than when it was
    /// last laid out, damaging what moved; true when something was damaged.
    @discardableResult
    public func tick(now: Date) -> Bool {
        var damaged = false
        for (id, w) in widgets {
            guard let view = w.message.view, let a = w.placed,
                  let t = LiveDateFormatter.nextChange(of: view, after: w.laidOutAt), t <= now else { continue }
            // A ticking time in figures that measure alike moves nothing: no layout.
            let b = renderer.restamp(a, now: now) ?? renderer.layout(view, family: w.message.family, now: now)
            let rects = PlacedTreeDamage.damage(from: a, at: w.laidOutAt, to: b, at: now, bounds: bounds(w.message.family))
            widgets[id] = SceneWidget(message: w.message, placed: b, laidOutAt: now)
            if !rects.isEmpty { damage(id, rects); damaged = true }
        }
        return damaged
    }

    /// The next instant after `date` at which a shown live date reads differently (the surface
    /// sleeps until then), nil when none will.
    public func nextTick(after date: Date) -> Date? {
        var best: Date?
        for w in widgets.values {
            guard let view = w.message.view, let t = LiveDateFormatter.nextChange(of: view, after: date) else { continue }
            if best.map({ t < $0 }) ?? true { best = t }
        }
        return best
    }

    /// A pointer event on its output's surface: the action for the executable.
    public func handle(_ event: PointerEvent) -> SceneAction {
        guard let c = context(event.output) else { return .nothing }
        if standBy != nil, swipedStandBy(event) {
            var leave = event
            leave.kind = .leave
            return interacting { $0.pointer(leave, c) }
        }
        return interacting { $0.pointer(event, c) }
    }

    /// StandBy's vertical swipe on a stack (at least `standBySwipe` points): up shows the
    /// stack's next widget, down the previous one. True when `event` ended one.
    private func swipedStandBy(_ event: PointerEvent) -> Bool {
        guard let out = outputs[event.output], let area = out.placement.area, let layout else { return false }
        switch event.kind {
        case .press(button: 1):
            let stacks = standByStacks(layout, on: event.output)
            standByPress = StandByStacks.stack(atX: event.x, width: area.width, stacks: stacks).map { (event.output, $0, event.y) }
            return false
        case .release(button: 1):
            defer { standByPress = nil }
            guard let p = standByPress, p.output == event.output, abs(event.y - p.y) >= Self.standBySwipe else { return false }
            standBy?.rotate(p.stack, by: event.y < p.y ? 1 : -1)
            replace(damageAll: false)
            return true
        default:
            return false
        }
    }

    /// StandBy's stacks on `output`: of the widgets assigned to it.
    private func standByStacks(_ layout: DesktopViewMessage.Layout, on output: DisplayOutput.ID) -> [[String]] {
        var shown = layout
        if let ids = outputs[output]?.ids { shown.widgets = shown.widgets.filter(ids.contains) }
        return StandByStacks.stacks(shown, families: widgets.mapValues(\.message.family))
    }

    /// How far a StandBy swipe travels, in points.
    public static let standBySwipe = 40.0

    /// A key event while the surface has keyboard focus: the action for the executable.
    public func handle(_ event: KeyEvent) -> SceneAction {
        guard let c = context(event.output) else { return .nothing }
        if standBy != nil, interaction.menu == nil, event.key == .up || event.key == .down, let layout,
           let area = outputs[event.output]?.placement.area {
            // Up / Down turn the stack of the focused widget (the left one without focus).
            let stacks = standByStacks(layout, on: event.output)
            let focusedX = interaction.focus.flatMap { c.placement.frame(of: $0) }.map { $0.x + $0.width / 2 } ?? 0
            if let stack = StandByStacks.stack(atX: focusedX, width: area.width, stacks: stacks) {
                standBy?.rotate(stack, by: event.key == .up ? 1 : -1)
                interaction.reset()
                replace(damageAll: false)
            }
            return .nothing
        }
        return interacting { $0.key(event, c) }
    }

    /// A widget of `family` dragged from the gallery is over area point (`x`, `y`) of `output`:
    /// its drop slot is drawn there (the other widgets making way) until `dragInEnded()`.
    /// Returns the slot (its `move`: where the widget goes once added), nil: no grid there.
    @discardableResult
    public func dragIn(family: WidgetFamily, output: DisplayOutput.ID, x: Double, y: Double) -> DropSlot? {
        guard let c = context(output), standBy == nil else { return nil }
        var slot: DropSlot?
        _ = interacting { slot = $0.dragIn(family: family, output: output, x: x, y: y, c); return .nothing }
        // The drag's first position grew the area to the grid's reach: the slot on the new one.
        if let grown = context(output), grown.placement != c.placement {
            _ = interacting { slot = $0.dragIn(family: family, output: output, x: x, y: y, grown); return .nothing }
        }
        return slot
    }

    /// The gallery's drag left the surface, was dropped or cancelled.
    public func dragInEnded() { _ = interacting { $0.dragInEnded(); return .nothing } }

    /// True while a drag that may bring a widget is under way anywhere on the display (X11: a
    /// drag source took `XdndSelection`), before it reaches the surface: the area of every
    /// output then holds the grid's `DropSlot.reach` for any family (the widgets stay where
    /// they are, in the anchor's corner), so that a drop anywhere on the grid — an empty slot,
    /// past the last widget — is the surface's, and every widget making way is drawn. A drag
    /// over the surface (`dragIn`) and edit mode's drag grow the area the same way.
    public var dragInPossible = false {
        didSet { if oldValue != dragInPossible { replace(damageAll: false) } }
    }

    /// Whether an "Add Widget" gallery is open (the lean surface follows its bus name): edit mode
    /// is on meanwhile (`SceneInteraction.setGalleryOpen`: the whole area takes input, so a
    /// gallery's drop anywhere on the grid is the surface's where no drag start is told, as on
    /// Wayland) and the area holds the grid's reach as while a drag is possible, so a drop past
    /// the last row is taken and every widget making way is drawn. Not in StandBy.
    public var galleryOpen = false {
        didSet {
            guard oldValue != galleryOpen else { return }
            _ = interacting { $0.setGalleryOpen(galleryOpen && standBy == nil); return .nothing }
            replace(damageAll: false)
        }
    }

    /// Every pixel of `output` is drawn again on its next frame.
    public func invalidate(_ output: DisplayOutput.ID) { outputs[output]?.full = true }

    // MARK: - What the executable reads

    public func placement(on output: DisplayOutput.ID) -> DesktopPlacement? { outputs[output]?.placement }

    /// The surface's area on `output` (its logical points), nil: no surface there.
    public func area(on output: DisplayOutput.ID) -> LogicalRect? { outputs[output]?.placement.area }

    /// Where input reaches the surface, in the area's points: the widgets' rectangles, or the
    /// whole area while a menu is open or edit mode is on. While a widget is dragged in over
    /// `output`, the rectangles where the widgets make way to and its slot: what is drawn (the
    /// window's shape when no compositor blends it; the backend takes the drop over the area).
    public func inputRegion(on output: DisplayOutput.ID) -> [LogicalRect] {
        guard let p = outputs[output]?.placement, let area = p.area else { return [] }
        if interaction.capturesArea { return [LogicalRect(x: 0, y: 0, width: area.width, height: area.height)] }
        if let incoming = interaction.incoming, incoming.output == output {
            return p.widgets.map { incoming.slot.preview[$0.id] ?? $0.frame } + [incoming.slot.frame]
        }
        return p.widgets.map(\.frame)
    }

    /// Whether the surface wants keyboard input now (menu, edit mode, a focused widget).
    public var wantsKeyboard: Bool { interaction.wantsKeyboard || standBy != nil }

    /// Whether `output` has something to draw.
    public func needsFrame(on output: DisplayOutput.ID) -> Bool {
        guard let s = outputs[output], s.placement.area != nil else { return false }
        return s.full || !s.pending.isEmpty
    }

    /// What is under area point (`x`, `y`) of `output`.
    public func hit(on output: DisplayOutput.ID, x: Double, y: Double) -> SceneHit? {
        guard let w = outputs[output]?.placement.widget(atX: x, y: y) else { return nil }
        if let placed = widgets[w.id]?.placed, let t = WidgetHitTest.target(in: placed, x: (x - w.frame.x) / w.zoom, y: (y - w.frame.y) / w.zoom) {
            return .control(id: w.id, target: t)
        }
        return .widget(id: w.id)
    }

    /// The last message about widget `id` (its kind, family, tree and state); nil when unknown.
    public func widget(_ id: String) -> DesktopViewMessage.Widget? { widgets[id]?.message }

    /// The laid-out tree of widget `id` (nil before its first entry), and the instant it was laid out at.
    public func placedTree(of id: String) -> (placed: PlacedNode, now: Date)? {
        guard let w = widgets[id], let p = w.placed else { return nil }
        return (p, w.laidOutAt)
    }

    /// Where widget `id` is drawn in a buffer of `scale`: its whole-pixel origin.
    public static func pixelOrigin(of frame: LogicalRect, scale: Double) -> (x: Double, y: Double) {
        ((frame.x * scale).rounded(), (frame.y * scale).rounded())
    }

    // MARK: - Drawing

    /// Draws what changed into `buffer` (of `buffer.output`, `buffer.scale`, `buffer.age`) and
    /// returns the rectangles redrawn, to pass to `present`; empty when nothing needed drawing
    /// (then do not present it).
    public func draw(into buffer: PixelBuffer) -> [PixelRect] {
        guard var out = outputs[buffer.output], out.placement.area != nil, buffer.width > 0, buffer.height > 0 else { return [] }
        let s = buffer.scale
        let whole = PixelRect(x: 0, y: 0, width: buffer.width, height: buffer.height)
        if out.drawnScale != s { out.history.reset(); out.full = true }
        let own = out.full ? [whole] : out.pending.compactMap { pixels($0, out.placement, s, output: buffer.output) }
        let redraw = out.history.redraw(age: buffer.age, damage: own, width: buffer.width, height: buffer.height)
        guard !redraw.isEmpty else { outputs[buffer.output] = out; return [] }
        out.history.record(own, width: buffer.width, height: buffer.height)
        out.pending = []; out.full = false; out.drawnScale = s
        outputs[buffer.output] = out
        paint(redraw, into: buffer, placement: out.placement)
        return redraw
    }

    private func paint(_ rects: [PixelRect], into buffer: PixelBuffer, placement: DesktopPlacement) {
        let surface = cairo_image_surface_create_for_data(buffer.pixels.assumingMemoryBound(to: UInt8.self), CAIRO_FORMAT_ARGB32,
                                                          Int32(clamping: buffer.width), Int32(clamping: buffer.height), Int32(clamping: buffer.stride))
        guard let surface, cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS, let cr = cairo_create(surface) else {
            if let surface { cairo_surface_destroy(surface) }
            return
        }
        for r in rects { cairo_rectangle(cr, Double(r.x), Double(r.y), Double(r.width), Double(r.height)) }
        cairo_clip(cr)
        cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE)
        cairo_set_source_rgba(cr, 0, 0, 0, standBy == nil ? 0 : 1)
        cairo_paint(cr)
        cairo_set_operator(cr, CAIRO_OPERATOR_OVER)
        let s = buffer.scale
        let drag = interaction.drag
        let decorations = SceneDecorations(cr: cr, text: renderer.text, scale: s, dark: appearance == .dark)
        if let slot = drag?.slot { decorations.dropSlot(slot.frame) }
        if let incoming = interaction.incoming, incoming.output == buffer.output { decorations.dropSlot(incoming.slot.frame) }
        for w in placement.widgets where w.id != drag?.id {
            let frame = shownFrame(of: w.id, placement, output: buffer.output) ?? w.frame
            guard let r = PixelRect(covering: frame, scale: s), rects.contains(where: { $0.intersection(r) != nil }) else { continue }
            drawWidget(w.id, family: w.family, frame: frame, zoom: w.zoom, on: cr, scale: s)
            if interaction.editing { decorations.removeBadge(SceneInteraction.badgeFrame(of: frame)) }
            if interaction.focus == w.id { decorations.focusRing(frame) }
        }
        if let d = drag, let w = placement.widgets.first(where: { $0.id == d.id }), let f = shownFrame(of: d.id, placement, output: buffer.output) {
            drawWidget(w.id, family: w.family, frame: f, zoom: w.zoom, on: cr, scale: s)
            decorations.removeBadge(SceneInteraction.badgeFrame(of: f))
        }
        if let m = interaction.menu { decorations.menu(m) }
        cairo_destroy(cr)
        cairo_surface_flush(surface)
        if night { for r in rects { NightTint.apply(to: buffer, r) } }
        cairo_surface_destroy(surface)
    }

    /// Where widget `id` is drawn now (area points): at the pointer while dragged, where it
    /// makes way for a dragged widget (or one dragged in from the gallery over `output`), else
    /// its place; nil when it is not placed.
    private func shownFrame(of id: String, _ placement: DesktopPlacement, output: DisplayOutput.ID) -> LogicalRect? {
        guard let f = placement.frame(of: id) else { return nil }
        if let incoming = interaction.incoming, incoming.output == output { return incoming.slot.preview[id] ?? f }
        guard let d = interaction.drag else { return f }
        if d.id == id { return LogicalRect(x: d.x - d.grabX, y: d.y - d.grabY, width: f.width, height: f.height) }
        return d.slot?.preview[id] ?? f
    }

    /// One widget at `frame` (area points): its tree through `PictureRenderer.paint` at a
    /// whole-pixel origin, at `zoom` × the buffer's scale (1 but in StandBy); dimmed and marked
    /// when stale or not running.
    private func drawWidget(_ id: String, family: WidgetFamily, frame: LogicalRect, zoom: Double, on cr: OpaquePointer, scale s: Double) {
        guard let w = widgets[id] else { return }
        let (ox, oy) = Self.pixelOrigin(of: frame, scale: s)
        let mark = WidgetMark(stale: w.message.stale, running: w.message.running && hostRunning)
        let options = PictureOptions(scale: s * zoom, appearance: appearance, now: w.laidOutAt)
        if mark != nil { cairo_push_group(cr) }
        let view = w.message.view ?? ViewNode(kind: .empty)
        let placed = w.placed ?? renderer.layout(view, family: family, now: w.laidOutAt)
        renderer.paint(view, family: family, placed: placed, on: cr, atPixelX: ox, y: oy, options: options)
        guard let mark else { return }
        cairo_pop_group_to_source(cr)
        cairo_paint_with_alpha(cr, 0.45)
        let width = renderer.text.measure(mark.text, font: WidgetMark.font, width: nil, maxLines: 1).width
        let r = WidgetMark.frame(textWidth: width, width: frame.width / zoom, height: frame.height / zoom, placed: w.placed)
        SceneDecorations(cr: cr, text: renderer.text, scale: s * zoom, dark: appearance == .dark)
            .mark(mark.text, at: Rect(x: ox / (s * zoom) + r.x, y: oy / (s * zoom) + r.y, width: r.width, height: r.height))
    }

    // MARK: - Damage bookkeeping

    private func lay(_ w: DesktopViewMessage.Widget, _ now: Date) -> PlacedNode? {
        w.view.map { renderer.layout($0, family: w.family, now: now) }
    }

    private func bounds(_ f: WidgetFamily) -> Rect { Rect(x: 0, y: 0, width: f.nominalSize.width, height: f.nominalSize.height) }

    private func damageWhole(_ id: String) {
        guard let f = widgets[id]?.message.family else { return }
        damage(id, [bounds(f)])
    }

    private func damage(_ id: String, _ rects: [Rect]) {
        guard !rects.isEmpty else { return }
        for key in outputs.keys { addPending(rects.map { .widget(id, $0) }, on: key) }
    }

    /// Most damage rectangles kept waiting per output: an output that draws nothing for long (a
    /// covered surface while a clock ticks) is drawn whole next instead of keeping more.
    static let maxPending = 64

    private func addPending(_ items: [Pending], on key: DisplayOutput.ID) {
        guard var s = outputs[key], !s.full else { return }
        s.pending += items
        if s.pending.count > Self.maxPending { s.pending = []; s.full = true }
        outputs[key] = s
    }

    private func invalidateAll() { for key in outputs.keys { outputs[key]?.full = true; outputs[key]?.pending = [] } }

    /// Places the widgets again on every output; a changed placement redraws that output whole.
    private func replace(damageAll: Bool) {
        for (key, s) in outputs {
            let p = placement(for: s.output, s.ids)
            if damageAll || p != s.placement { outputs[key]?.placement = p; outputs[key]?.full = true }
        }
    }

    private func placement(for o: DisplayOutput, _ ids: [String]?) -> DesktopPlacement {
        guard var layout else { return DesktopPlacement(layout: .init(widgets: [], anchor: "", margin: 0, gap: 0, columns: 1, scale: 1, dark: nil), families: [:], output: o) }
        if let ids { layout.widgets = layout.widgets.filter(ids.contains) }
        if let standBy { return DesktopPlacement(standBy: standBy, layout: layout, families: widgets.mapValues(\.message.family), output: o) }
        let families = widgets.mapValues(\.message.family)
        var minimum = (width: ContextMenu.width, height: ContextMenu.height)
        if let reach = dragReach(layout, families) { minimum = (max(minimum.width, reach.width), max(minimum.height, reach.height)) }
        return DesktopPlacement(layout: layout, families: families, output: o, minimumSize: minimum)
    }

    /// The block the grid of `layout` can become with the drag under way (`DropSlot.reach`):
    /// a widget of any family coming in, or edit mode's dragged widget anywhere; nil: no drag.
    private func dragReach(_ layout: DesktopViewMessage.Layout, _ families: [String: WidgetFamily]) -> (width: Double, height: Double)? {
        let placed = layout.widgets.compactMap { id in families[id].map { (id: id, family: $0) } }
        if dragInPossible || galleryOpen || interaction.incoming != nil {
            return DropSlot.reach(of: placed, adding: WidgetFamily.allCases, columns: layout.columns, gap: layout.gap)
        }
        guard let d = interaction.drag, let family = families[d.id] else { return nil }
        return DropSlot.reach(of: placed.filter { $0.id != d.id }, adding: [family], columns: layout.columns, gap: layout.gap)
    }

    /// The pixels of pending damage in a buffer of `scale`.
    private func pixels(_ p: Pending, _ placement: DesktopPlacement, _ s: Double, output: DisplayOutput.ID) -> PixelRect? {
        switch p {
        case .area(let r): return PixelRect(covering: r, scale: s)
        case .widget(let id, let r):
            guard let f = shownFrame(of: id, placement, output: output) else { return nil }
            let (ox, oy) = Self.pixelOrigin(of: f, scale: s)
            let z = placement.widgets.first { $0.id == id }?.zoom ?? 1
            return PixelRect(covering: LogicalRect(x: r.x * z, y: r.y * z, width: r.width * z, height: r.height * z), scale: s, dx: ox, dy: oy)
        }
    }

    private func context(_ output: DisplayOutput.ID) -> SceneInteraction.Context? {
        guard let p = outputs[output]?.placement, let layout else { return nil }
        return SceneInteraction.Context(placement: p, layout: layout) { [unowned self] x, y in self.hit(on: output, x: x, y: y) }
    }

    /// Runs `body` on the interaction; a change to what it draws damages, on every output, what
    /// it covered before and covers after.
    private func interacting(_ body: (inout SceneInteraction) -> SceneAction) -> SceneAction {
        let before = interaction
        let action = body(&interaction)
        // StandBy has no grid to arrange: "Edit Home Screen" ends at once there.
        if standBy != nil, interaction.editing { interaction.reset() }
        guard interaction.generation != before.generation else { return action }
        // A drag began or ended: the area grows to the grid's reach, or back (`dragReach`).
        if (before.incoming == nil) != (interaction.incoming == nil) || before.drag?.id != interaction.drag?.id { replace(damageAll: false) }
        for (key, s) in outputs {
            let rects = Self.footprint(before, s.placement, output: key) + Self.footprint(interaction, s.placement, output: key)
            addPending(rects.map { .area($0) }, on: key)
        }
        return action
    }

    /// Where the interaction's drawing is on `placement`, in area points: the menu, the focused
    /// widget (its ring), every widget in edit mode (badges), and while dragging the dragged
    /// widget, its slot and every widget making way (before and after). Outset by the ink margin.
    static func footprint(_ i: SceneInteraction, _ placement: DesktopPlacement, output: DisplayOutput.ID) -> [LogicalRect] {
        var rects: [LogicalRect] = []
        if let m = i.menu { rects.append(m.frame) }
        if let f = i.focus.flatMap({ placement.frame(of: $0) }) { rects.append(f) }
        if i.editing { rects += placement.widgets.map(\.frame) }
        if let d = i.drag, let f = placement.frame(of: d.id) {
            rects.append(LogicalRect(x: d.x - d.grabX, y: d.y - d.grabY, width: f.width, height: f.height))
            if let slot = d.slot {
                rects.append(slot.frame)
                for w in placement.widgets where slot.preview[w.id] != w.frame {
                    rects.append(w.frame)
                    if let p = slot.preview[w.id] { rects.append(p) }
                }
            }
        }
        if let incoming = i.incoming, incoming.output == output {
            rects.append(incoming.slot.frame)
            for w in placement.widgets where incoming.slot.preview[w.id] != w.frame {
                rects.append(w.frame)
                if let p = incoming.slot.preview[w.id] { rects.append(p) }
            }
        }
        let m = PlacedTreeDamage.inkMargin
        return rects.map { LogicalRect(x: $0.x - m, y: $0.y - m, width: $0.width + 2 * m, height: $0.height + 2 * m) }
    }
}
