import FoundationEssentials
import OpenWidgetKit

/// The host's configuration (`config.json`, documented key by key in `docs/config.md`), with every
/// path resolved to an absolute one. A value type: the running host swaps it whole when a new,
/// valid config arrives. Parse it with `ConfigParser`.
public struct HostConfig: Equatable, Sendable {
    /// Where things live. Relative paths in the file are resolved against the file's directory;
    /// absent ones take XDG defaults (`HostPaths`).
    public struct Paths: Equatable, Sendable {
        public var plugins: String
        public var out: String
        public var containers: String
        public var state: String
        /// The control socket (`reload`, `click`, `status`); nil: the default (`ControlSocketPath.resolve`).
        public var socket: String?
        public init(plugins: String, out: String, containers: String, state: String, socket: String? = nil) {
            self.plugins = plugins; self.out = out; self.containers = containers; self.state = state; self.socket = socket
        }
    }

    /// Where a widget's updates go.
    public enum Output: String, CaseIterable, Equatable, Hashable, Sendable {
        /// `out/<id>.txt` and `out/<id>.json`.
        case files
        /// `out/<id>.txt` only (what conky's `${cat}` or a polybar script reads).
        case txt
        /// `out/<id>.json` only (what `follow` and waybar read).
        case json
        /// One line on stdout per update when `run --stdout jsonl` is given.
        case stdout
        /// `out/<id>.png` (and `out/<id>.regions.json`), drawn by the render process.
        case png
        /// `out/<id>.svg` (and `out/<id>.regions.json`), drawn by the render process.
        case svg

        /// What a widget gets when nothing says otherwise: both files and stdout.
        public static let standard: [Output] = [.files, .stdout]
    }

    /// One configured widget instance.
    public struct Widget: Equatable, Sendable {
        /// File-name-safe id (`[A-Za-z0-9._-]`); defaults to `<kind>-<family>`.
        public var id: String
        public var kind: String
        /// nil: the first family the widget supports.
        public var family: WidgetFamily?
        /// The bundle to take `kind` from (its bundle id or `.so` file name), when several declare it.
        public var bundle: String?
        /// Intent configuration, by parameter name.
        public var parameters: [String: JSONValue]
        public var outputs: [Output]
        /// How its pictures are drawn (`defaults.picture` with its own `picture` keys applied).
        public var picture: PictureSettings
        public init(id: String, kind: String, family: WidgetFamily?, bundle: String? = nil,
                    parameters: [String: JSONValue] = [:], outputs: [Output] = Output.standard, picture: PictureSettings = PictureSettings()) {
            self.id = id; self.kind = kind; self.family = family; self.bundle = bundle
            self.parameters = parameters; self.outputs = outputs; self.picture = picture
        }
    }

    /// Settings that apply to every widget unless a widget says otherwise.
    public struct Defaults: Equatable, Sendable {
        /// Outputs of widgets that do not list their own (and of every auto-created widget).
        public var outputs: [Output] = Output.standard
        /// How `png` / `svg` outputs are drawn (`defaults.picture`).
        public var picture = PictureSettings()
        /// With no `widgets` list: the families auto-created instances are limited to (nil: all).
        public var families: [WidgetFamily]? = nil
        /// Coalescing window for bursts of container changes, in milliseconds.
        public var containerCoalesceMs: Int = 100
        /// Quiet time after the last change in the plugin folder before it is rescanned, in ms.
        public var pluginSettleMs: Int = 300
        /// Shortest interval between two timeline requests of one widget, in seconds.
        public var minReloadSeconds: Double = 1
        /// Deadline for one plugin call (`describe`, `timeline`), in seconds; the worker is killed past it.
        public var requestTimeoutSeconds: Double = 10
        /// Longest wait before retrying a widget whose timeline failed, in seconds (backoff doubles up to it).
        public var retryMaxSeconds: Double = 300
        /// How long a widget's newest timeline may wait before it is saved to `state/timelines`
        /// (its first in a run is saved at once; 0 saves every one at once), in seconds.
        public var timelineSaveDelaySeconds: Double = 30
        /// The program (and leading arguments) a click opens a widget's URL with.
        public var opener: [String] = ["xdg-open"]
        /// The URL schemes (lowercase) a click may hand to `opener` (`defaults.openSchemes`);
        /// a widget's URL with another scheme is refused, never opened.
        public var openSchemes: [String] = ["https", "http", "mailto"]
        /// Limits every bundle is held to (`defaults.limits`; docs/limits.md).
        public var limits = Limits()
        public init() {}
    }

    /// The most widget instances one host runs: a `widgets` list longer than this is refused,
    /// and without one the instances past it are not started (docs/limits.md). Every widget's
    /// timeline requests go through its bundle's one worker, one at a time: 10 000 made that
    /// worker miss every deadline (issue 23).
    public static let widgetLimit = 1_000

    public var paths: Paths
    /// nil: every kind of every bundle in each family it supports.
    public var widgets: [Widget]?
    public var defaults: Defaults
    /// Per-bundle settings by bundle id or `.so` file name (`bundles` in config.json).
    public var bundles: [String: BundleSettings] = [:]
    /// The `desktop` section (`widgethost-desktop`); nil when absent. The daemon ignores it.
    public var desktop: DesktopConfig?

    public init(paths: Paths, widgets: [Widget]? = nil, defaults: Defaults = Defaults(), bundles: [String: BundleSettings] = [:]) {
        self.paths = paths; self.widgets = widgets; self.defaults = defaults; self.bundles = bundles
    }
}

/// Widget ids name files: everything outside `[A-Za-z0-9._-]` becomes `_`, and a leading dot
/// is replaced, so an id can never be hidden, `..`, or contain a slash.
public enum WidgetID {
    public static func sanitize(_ raw: String) -> String {
        var out = String(raw.unicodeScalars.map { c -> Character in
            let v = c.value
            let ok = (v >= 48 && v <= 57) || (v >= 65 && v <= 90) || (v >= 97 && v <= 122) || v == 46 || v == 45 || v == 95
            return ok ? Character(c) : "_"
        })
        if out.isEmpty { out = "_" }
        if out.hasPrefix(".") { out = "_" + out.dropFirst() }
        return out
    }

    public static func derived(kind: String, family: WidgetFamily) -> String { sanitize("\(kind)-\(family.rawValue)") }
}

/// Default locations (XDG Base Directory): plugins and containers under `$XDG_DATA_HOME/widgethost`,
/// outputs and state under `$XDG_STATE_HOME/widgethost`, the config at
/// `$XDG_CONFIG_HOME/widgethost/config.json`. Pure functions of the environment given.
public enum HostPaths {
    static func home(_ env: [String: String]) -> String { env["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp" }
    static func xdg(_ key: String, _ fallback: String, _ env: [String: String]) -> String {
        if let v = env[key], v.hasPrefix("/") { return v }
        return home(env) + "/" + fallback
    }
    public static func defaultConfigFile(_ env: [String: String]) -> String {
        xdg("XDG_CONFIG_HOME", ".config", env) + "/widgethost/config.json"
    }
    public static func defaults(_ env: [String: String]) -> HostConfig.Paths {
        let data = xdg("XDG_DATA_HOME", ".local/share", env) + "/widgethost"
        let state = xdg("XDG_STATE_HOME", ".local/state", env) + "/widgethost"
        return HostConfig.Paths(plugins: data + "/Plugins", out: state + "/out",
                                containers: env["WIDGETHOST_CONTAINERS"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? data + "/containers",
                                state: state + "/state")
    }
}
