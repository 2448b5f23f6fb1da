import CSurfaceLoop
import FoundationEssentials
import OpenWidgetKit
import WidgetConfigEditing
import WidgetDesktopScene
import WidgetHostCore
#if canImport(Glibc)
import Glibc
#endif

/// What the surface's clicks and menu items do: a click runs the widget's control (or opens its
/// URL) through the host's control socket, as `widgethost click` does; "Remove Widget" and a
/// move in edit mode edit `config.json` through `WidgetConfigEditing`, as `widgethost remove` /
/// `move` do (the running host sees the file change and streams the new grid); "Edit Widget" and
/// "Add Widget…" start `widgethost-edit`, the GTK editor, next to this executable.
///
/// Threading: the surface's one thread; `click` blocks for at most `clickTimeout` seconds.
public struct WidgetActions {
    public var controlSocket: String
    /// The config file edits write (nil: the default one).
    public var configPath: String
    public var environment: [String: String]
    /// The editor executable (`widgethost-edit` beside this one, or `WIDGETHOST_EDIT_EXECUTABLE`).
    public var editExecutable: String
    public var clickTimeout = 2
    public var log: (String) -> Void

    public init(controlSocket: String, configPath: String, environment: [String: String], editExecutable: String,
                log: @escaping (String) -> Void) {
        self.controlSocket = controlSocket; self.configPath = configPath; self.environment = environment
        self.editExecutable = editExecutable; self.log = log
    }

    /// A click the scene decided on: `request` to the control socket (button 1 with a control's
    /// target, button 3 for the widget's URL). Logs one line with the outcome; `point`: where, in
    /// the widget's picture pixels.
    public func click(_ request: ControlRequest, widget id: String, at point: String?) {
        let at = point.map { " at \($0)" } ?? ""
        do {
            let r = try ControlSocketClient.send(request, to: controlSocket, timeout: clickTimeout)
            log("click on \(id)\(at): " + (r.ok ? r.message ?? "done" : r.error ?? "refused"))
        } catch {
            log("click on \(id)\(at): \(error)")
        }
    }

    /// "Remove Widget": takes `id` out of the configuration (and the grid).
    @discardableResult public func remove(_ id: String) -> Bool { edit(.remove(id: id), what: "remove \(id)") }

    /// Edit mode's drop: `id` to `destination` in the grid's order.
    @discardableResult public func move(_ id: String, to destination: GridDestination) -> Bool {
        edit(.move(id: id, to: destination), what: "move \(id)")
    }

    /// A widget dropped from the gallery (`bytes`: a `WidgetDragPayload`): added as the gallery
    /// adds it and, in the same edit (one write of the file), moved to `destination` in the
    /// grid's order (nil: left at the end, where the add puts it). A payload or edit refused is
    /// logged and the file left as it was.
    @discardableResult public func addDropped(_ bytes: [UInt8], at destination: GridDestination?) -> Bool {
        let payload: WidgetDragPayload
        do { payload = try WidgetDragPayload(bytes: bytes) } catch {
            log("cannot add the dropped widget: \(error)")
            return false
        }
        return edit(what: "add \(payload.placement.kind) (\(payload.placement.family)) where it was dropped") { editor in
            try payload.add(to: &editor, at: destination)
        }
    }

    private func edit(_ change: ConfigEdit, what: String) -> Bool {
        edit(what: what) { try $0.apply(change) }
    }

    private func edit(what: String, _ change: (inout ConfigEditor) throws -> String) -> Bool {
        let editor = ConfigFileEditor(path: configPath, environment: environment, catalog: { PluginFolderCatalog(config: $0) })
        do {
            _ = try editor.edit { try change(&$0) }
            log("\(what): done (\(configPath))")
            return true
        } catch {
            log("cannot \(what): \(error)")
            return false
        }
    }

    /// "Edit Widget": `widgethost-edit --edit ID --config FILE`, on the surface's own config.
    public func editWidget(_ id: String) { startEditor(["--edit", id, "--config", configPath]) }
    /// "Add Widget…": `widgethost-edit --gallery --config FILE`.
    public func openGallery() { startEditor(["--gallery", "--config", configPath]) }

    /// Starts the editor detached (its own session; not waited for: SIGCHLD is ignored, so it
    /// is reaped by the kernel). One line when it is not installed.
    private func startEditor(_ args: [String]) {
        guard access(editExecutable, X_OK) == 0 else {
            log("cannot open the editor: \(editExecutable) is not installed (it comes with widgethost-edit)")
            return
        }
        signal(SIGCHLD, SIG_IGN)
        let argv = ([editExecutable] + args).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, widgethost_spawn_setsid_flag())
        let rc = posix_spawn(&pid, editExecutable, nil, &attributes, argv, environ)
        log(rc == 0 ? "started \(([editExecutable] + args).joined(separator: " ")) (pid \(pid))"
                    : "cannot start \(editExecutable): \(String(cString: strerror(rc)))")
    }

    /// Where a widget dropped from the gallery onto `grid` (the widgets' ids in the desktop's
    /// order and their families, `desktop`'s columns, gap and anchor) at grid point (`x`, `y`)
    /// goes: `DropSlot(adding:)` on the grid's own bounding box, as the GTK surface's window is
    /// (nil: at the end, where an add puts it).
    public static func dropDestination(adding family: WidgetFamily, x: Double, y: Double, order: [String],
                                       families: [String: WidgetFamily], desktop: DesktopConfig) -> GridDestination? {
        let layout = DesktopViewMessage.Layout(widgets: order, anchor: desktop.anchor.rawValue, margin: 0, gap: desktop.gap,
                                               columns: desktop.columns, scale: 1, dark: nil)
        let grid = DesktopGrid(widgets: order.compactMap { id in families[id].map { (id: id, family: $0) } }, columns: desktop.columns, gap: desktop.gap)
        let output = DisplayOutput(id: 0, connector: "grid", logicalWidth: grid.width, logicalHeight: grid.height, scale: 1, isPrimary: true)
        let placement = DesktopPlacement(layout: layout, families: families, output: output)
        return DropSlot(adding: family, id: SceneInteraction.incomingID, x: x, y: y, placement: placement, layout: layout)?.destination
    }

    /// `x` as whole pixels for a log line; a number no `Int` holds is named, not converted (a trap).
    public static func wholePixel(_ x: Double) -> String {
        x.isFinite && abs(x) < 1e15 ? String(Int(x)) : "\(x)"
    }
}

extension DropSlot {
    /// The edit's grid destination for a widget dropped here (nil: the order does not change,
    /// or, for one added, it stays at the end where the add puts it).
    public var destination: GridDestination? {
        switch move {
        case .before(let other)?: .before(other)
        case .index(let i)?: .position(i)
        case nil: nil
        }
    }
}
