import OpenWidgetKit
import WidgetRendering

/// How a widget's `png` / `svg` outputs are drawn and announced: `defaults.picture` in
/// `config.json`, overridden key by key by a widget's own `picture` (docs/config.md). Value type.
///
/// ```json
/// "picture": {"scale": 2, "colorScheme": "dark", "signal": 8}
/// ```
public struct PictureSettings: Equatable, Sendable {
    /// The SDK's own: the scheme a picture is drawn in is the one its views are evaluated in
    /// (`InstanceSpec.colorScheme`, `@Environment(\.colorScheme)`).
    public typealias ColorScheme = OpenWidgetKit.ColorScheme

    /// Pixels per point: 1, 2 or 3 (a `systemSmall` widget at 2 is 316 × 316 pixels).
    public var scale: Int = 2
    /// Drawn in, and evaluated in: a widget drawn dark sees `colorScheme == .dark`, in every output.
    /// With `followsDesktop` it is the fallback (light) until a desktop surface says its scheme.
    public var colorScheme: ColorScheme = .light
    /// `"colorScheme": "system"`: the scheme the desktop surface reports on its `watch`
    /// (`WidgetInstancePlanner.plan`'s `desktopColorScheme`), re-evaluated when it changes.
    public var followsDesktop = false
    /// `fullColor`, or `accented`: iOS 18's tinted Home Screen — views are evaluated with
    /// `widgetRenderingMode == .accented`, and drawn with their `widgetAccentable()` parts in
    /// `tint`, the rest in a pale tone of it, on a dark backdrop instead of their background.
    public var renderingMode: RenderingMode = .fullColor
    /// The accented mode's tint (`AccentTint`: a colour name or `#RRGGBB`).
    public var tint: String = AccentTint.fallback
    /// When the picture file changed, `SIGRTMIN+signal` goes to every process of this user named
    /// `signalProcess` (`pkill -RTMIN+N waybar`): waybar's `image` module with `"signal": N`
    /// reloads its picture then. nil: no signal.
    public var signal: Int? = nil
    /// The process name the signal goes to: processes whose name (`comm`, at most 15 bytes) equals
    /// it, exactly (unlike `pkill`'s pattern, `waybar` does not reach `waybar-helper`).
    public var signalProcess: String = "waybar"
    /// Deadline for drawing one picture, in seconds; past it the render process is killed (the
    /// picture is lost, the next one starts a new render process).
    public var timeoutSeconds: Double = 5
    /// The widget's render-time budget (`PictureFairShare`): the most render time it can spend at
    /// once, in seconds, refilled over 10 s (a fifth of the render process in the long run). A
    /// picture's deadline is what the widget has saved up, at most `timeoutSeconds`.
    public var budgetSeconds: Double = 2
    /// The widget's size budget: a PNG or SVG larger than this many KiB is not written (the
    /// picture fails, and the widget is drawn less often).
    public var maxFileKB: Int = 4096

    public init() {}

    /// How a system-family widget is drawn (the accessory families are always drawn as the
    /// Lock Screen shows them).
    public enum RenderingMode: String, Equatable, Sendable, CaseIterable { case fullColor, accented }

    /// The tint a picture is drawn with: nil in full colour.
    public var pictureTint: String? { renderingMode == .accented ? tint : nil }

    /// What the worker is asked to evaluate in (`WireRequest.renderingMode`; nil: the family's own).
    public var requestedRenderingMode: String? { renderingMode == .accented ? "accented" : nil }

    /// The widget's time budget as `PictureFairShare` counts it.
    public var budget: PictureFairShare.Budget { PictureFairShare.Budget(seconds: budgetSeconds) }

    static let keys: Set<String> = ["scale", "colorScheme", "renderingMode", "tint", "signal", "signalProcess", "timeoutSeconds", "budgetSeconds",
                                    "maxFileKB", "comment"]
    /// Signals `SIGRTMIN+1` … `SIGRTMIN+30` (glibc: `SIGRTMAX - SIGRTMIN` is 30).
    public static let signalRange = 1...30

    /// `base` with the keys of the object at `path` applied.
    static func parse(_ v: JSONValue, at path: String, base: PictureSettings, problems: ConfigProblems) throws(ConfigError) -> PictureSettings {
        let o = try ConfigParser.object(v, at: path, keys: keys, problems: problems)
        var s = base
        func set(_ key: String, _ body: (JSONValue) throws(ConfigError) -> Void) {
            guard let v = o[key] else { return }
            problems.attempt { () throws(ConfigError) in try body(v) }
        }
        set("scale") { v throws(ConfigError) in
            let n = try ConfigParser.number(v, at: "\(path).scale", min: 1, max: 3)
            guard n == n.rounded() else { throw ConfigError(path: "\(path).scale", reason: "must be 1, 2 or 3, found \(n)") }
            s.scale = Int(n)
        }
        set("colorScheme") { v throws(ConfigError) in
            let name = try ConfigParser.string(v, at: "\(path).colorScheme")
            if name == "system" { s.colorScheme = .light; s.followsDesktop = true; return }
            guard let c = ColorScheme(rawValue: name) else {
                throw ConfigError(path: "\(path).colorScheme", reason: "unknown colour scheme \"\(name)\" (one of: light, dark, system)")
            }
            s.colorScheme = c
            s.followsDesktop = false
        }
        set("renderingMode") { v throws(ConfigError) in
            let name = try ConfigParser.string(v, at: "\(path).renderingMode")
            guard let m = RenderingMode(rawValue: name) else {
                throw ConfigError(path: "\(path).renderingMode", reason: "unknown rendering mode \"\(name)\" (one of: fullColor, accented)")
            }
            s.renderingMode = m
        }
        set("tint") { v throws(ConfigError) in
            let text = try ConfigParser.string(v, at: "\(path).tint")
            guard AccentTint.style(text) != nil else {
                throw ConfigError(path: "\(path).tint", reason: "unknown colour \"\(text)\" (\(AccentTint.expected))")
            }
            s.tint = text
        }
        set("signal") { v throws(ConfigError) in
            if v == .null { s.signal = nil; return }
            let n = try ConfigParser.number(v, at: "\(path).signal", min: Double(signalRange.lowerBound), max: Double(signalRange.upperBound))
            guard n == n.rounded() else { throw ConfigError(path: "\(path).signal", reason: "must be a whole number, found \(n)") }
            s.signal = Int(n)
        }
        set("signalProcess") { v throws(ConfigError) in
            let name = try ConfigParser.string(v, at: "\(path).signalProcess")
            guard !name.isEmpty, !name.contains("/") else {
                throw ConfigError(path: "\(path).signalProcess", reason: "must be a process name (no slash, not empty)")
            }
            s.signalProcess = name
        }
        set("timeoutSeconds") { v throws(ConfigError) in s.timeoutSeconds = try ConfigParser.number(v, at: "\(path).timeoutSeconds", min: 0.1, max: 600) }
        set("budgetSeconds") { v throws(ConfigError) in s.budgetSeconds = try ConfigParser.number(v, at: "\(path).budgetSeconds", min: 0.25, max: 600) }
        set("maxFileKB") { v throws(ConfigError) in
            let n = try ConfigParser.number(v, at: "\(path).maxFileKB", min: 16, max: Double(1 << 20))
            guard n == n.rounded() else { throw ConfigError(path: "\(path).maxFileKB", reason: "must be a whole number, found \(n)") }
            s.maxFileKB = Int(n)
        }
        return s
    }
}

extension HostConfig {
    /// The picture settings of widget `id`: its own when the config lists it, else `defaults.picture`.
    public func pictureSettings(for id: String) -> PictureSettings {
        widgets?.first(where: { $0.id == id })?.picture ?? defaults.picture
    }
}

extension HostConfig.Output {
    /// `png` or `svg`: drawn by the render process, not by a sink.
    public var isPicture: Bool { self == .png || self == .svg }
}
