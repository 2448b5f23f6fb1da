import CGtk
import FoundationEssentials
import OpenWidgetKit
import WidgetConfigEditing
import WidgetHostCore
#if canImport(Glibc)
import Glibc
#endif

/// Arguments and start-up of `widgethost-edit`; the process ends when its last window closes.
/// Main thread.
enum EditCommand {
    static let usage = """
    usage: widgethost-edit --gallery [--config FILE]
           widgethost-edit --edit ID [--config FILE]

    --gallery   The "Add Widget" window: every installed widget in every size; choosing one adds
                it to the config (and the desktop grid) and, when it has settings, opens its
                "Edit Widget" form. Prints the new widget's id.
    --edit ID   The "Edit Widget" form of widget ID: its settings, Apply, Remove Widget.
    --config    The config file (default: $XDG_CONFIG_HOME/widgethost/config.json).

    A running host applies each change at once. See docs/desktop.md, "Edit Widgets".
    """

    /// Exit statuses: 0 when the windows are closed, 1 when the config or the widget cannot be
    /// read or no display opens, 2 for bad arguments.
    static func run(_ args: [String]) -> Int32 {
        var configPath: String?, editID: String?, gallery = false
        var i = 0
        while i < args.count {
            switch args[i] {
            case "--help", "-h": print(usage); return 0
            case "--version": print("widgethost-edit \(openWidgetKitVersion)"); return 0
            case "--gallery": gallery = true
            case "--config", "--edit":
                guard i + 1 < args.count, !args[i + 1].hasPrefix("--") else { return fail("\(args[i]) needs a value", status: 2) }
                if args[i] == "--config" { configPath = args[i + 1] } else { editID = args[i + 1] }
                i += 1
            default: return fail("unknown argument \"\(args[i])\"\n\(usage)", status: 2)
            }
            i += 1
        }
        guard gallery != (editID != nil) else { return fail("give --gallery or --edit ID (one of them)\n\(usage)", status: 2) }
        let environment = ProcessEnvironment.current()
        let path = configPath.map(absolute) ?? HostPaths.defaultConfigFile(environment)
        let file = ConfigFileEditor(path: path, environment: environment, catalog: { catalog($0) })

        setenv("GDK_GL", "disable", 0)   // forms and pictures need no OpenGL: Mesa stays unloaded
        guard gtk_init_check(nil, nil) != 0 else {
            return fail("cannot open a display (is DISPLAY or WAYLAND_DISPLAY set?)", status: 1)
        }
        let windows = OpenWindows()
        do {
            let editor = try readEditor(path: path, environment: environment, liveEntities: editID != nil)
            if let editID {
                let form = try ParameterForm(id: editID, editor: editor)
                let edit = EditWidgetWindow(form: form, file: file)
                windows.track(edit.window)
                edit.show()
            } else {
                let window = GalleryWindow(config: editor.config, file: file) { id, item in
                    print(id)
                    fflush(nil)
                    openFormAfterAdding(id, item: item, path: path, environment: environment, file: file, windows: windows)
                }
                windows.track(window.window)
                window.show()
            }
        } catch {
            return failInWindow("\(path): \(error)")
        }
        gtk_main()
        return 0
    }

    /// After the gallery added a widget with settings, its form, as iOS offers after "Add Widget";
    /// the gallery closes either way.
    private static func openFormAfterAdding(_ id: String, item: GalleryItem, path: String, environment: [String: String],
                                            file: ConfigFileEditor, windows: OpenWindows) {
        if !item.parameters.isEmpty, let editor = try? readEditor(path: path, environment: environment),
           let form = try? ParameterForm(id: id, editor: editor) {
            let edit = EditWidgetWindow(form: form, file: file)
            windows.track(edit.window)
            edit.show()
        }
        windows.closeAll(except: windows.newest)
    }

    /// The installed widgets as the host described them (`BundleManifestCache`: the entity
    /// options its serving workers listed), else as a worker of this process describes them.
    static func catalog(_ config: HostConfig) -> PluginFolderCatalog {
        PluginFolderCatalog(config: config, manifestCache: BundleManifestCache(hostConfig: config))
    }

    /// A running host lists its placed bundles' entities again (`LiveEntityOptions`): the form's
    /// menus offer the players and calendars there now. A failure is said on stderr; the cached
    /// options are offered. Blocking (bounded); any thread.
    static func refreshEntities(_ config: HostConfig, environment: [String: String]) {
        if let problem = LiveEntityOptions.refresh(config: config, environment: environment) { printError("widgethost-edit: warning: \(problem)") }
    }

    /// The config as it is on disk now, for reading (a read-only file is read; writing it is
    /// refused later, in the window). `liveEntities`: `refreshEntities` before the catalog is made.
    static func readEditor(path: String, environment: [String: String], liveEntities: Bool = false) throws -> ConfigEditor {
        guard let data = FileIO.read(path) else {
            throw ConfigEditError(errno == ENOENT ? "no config file (create one with {} in it for every default)" : String(cString: strerror(errno)))
        }
        let base = path.deletingLastPathComponent
        let config = try ConfigParser.parse(data, baseDirectory: base, environment: environment)
        if liveEntities { refreshEntities(config, environment: environment) }
        return try ConfigEditor(bytes: [UInt8](data), baseDirectory: base, environment: environment, catalog: catalog(config))
    }

    static func absolute(_ path: String) -> String {
        if path.hasPrefix("/") { return path }
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return path }
        return buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) } + "/" + path
    }

    static func fail(_ message: String, status: Int32) -> Int32 {
        printError("widgethost-edit: \(message)")
        return status
    }

    /// Says why on stderr and in a window (the editor is started from the desktop's menu, where
    /// nobody reads stderr); returns 1 when that window is closed.
    static func failInWindow(_ message: String) -> Int32 {
        printError("widgethost-edit: \(message)")
        let window = gtk_window_new(GTK_WINDOW_TOPLEVEL)!
        gtk_window_set_title(cast(window), "Edit Widgets")
        let box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 12)!
        gtk_container_set_border_width(cast(box), 16)
        let label = makeLabel(message)
        gtk_label_set_selectable(cast(label), 1)   // to copy it; not focusable, so not selected at once
        gtk_widget_set_can_focus(label, 0)
        gtk_box_pack_start(cast(box), label, 0, 0, 0)
        let close = gtk_button_new_with_mnemonic("_Close")!
        gtk_widget_set_halign(close, GTK_ALIGN_END)
        gtk_box_pack_start(cast(box), close, 0, 0, 0)
        gtk_container_add(cast(window), box)
        closeOnEscape(window)
        SignalHandler.connect(close, "clicked") { gtk_widget_destroy(window) }
        let windows = OpenWindows()
        windows.track(window)
        gtk_widget_show_all(window)
        gtk_widget_grab_focus(close)
        gtk_main()
        return 1
    }
}

/// The editor's windows: GTK's loop ends when the last one is destroyed. Main thread.
final class OpenWindows {
    private(set) var windows: [UnsafeMutablePointer<GtkWidget>] = []
    var newest: UnsafeMutablePointer<GtkWidget>? { windows.last }

    func track(_ window: UnsafeMutablePointer<GtkWidget>) {
        windows.append(window)
        SignalHandler.connect(window, "destroy") {
            self.windows.removeAll { $0 == window }
            if self.windows.isEmpty { gtk_main_quit() }
        }
    }

    /// Destroys every window but `keep` (every window when nil).
    func closeAll(except keep: UnsafeMutablePointer<GtkWidget>?) {
        for w in windows where w != keep { gtk_widget_destroy(w) }
    }
}

/// One line on stderr.
func printError(_ s: String) {
    let bytes = Array((s + "\n").utf8)
    _ = bytes.withUnsafeBytes { write(2, $0.baseAddress!, $0.count) }
}
