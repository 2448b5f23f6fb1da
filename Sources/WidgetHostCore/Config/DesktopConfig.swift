import OpenWidgetKit

/// The `desktop` section of `config.json`: which widgets `widgethost-desktop` puts on the
/// desktop, and where (docs/desktop.md). Value type.
///
/// ```json
/// "desktop": {"widgets": ["habit", "clocky"], "anchor": "top-right", "margin": 32, "gap": 22,
///             "columns": 2, "scale": 1, "output": "primary", "outputs": {"clocky": "HDMI-A-1"}}
/// ```
///
/// `output` says which monitor the widgets go on, `outputs` overrides it per widget id; each is
/// an output selector (`OutputSelector`): `primary`, `all`, a connector name or a monitor's
/// identity (make, model and serial, as sway names outputs).
public struct DesktopConfig: Equatable, Sendable {
    public enum Anchor: String, CaseIterable, Sendable {
        case topLeft = "top-left", topRight = "top-right", bottomLeft = "bottom-left", bottomRight = "bottom-right"
    }

    /// Widget ids, in grid order; empty: every widget with a picture in `out/`, by id.
    public var widgets: [String] = []
    public var anchor: Anchor = .topRight
    /// Distance from the screen's edges, in points.
    public var margin: Double = 32
    /// Space between widgets across, in points (down: `gap + 16`, as on the Home Screen).
    public var gap: Double = 22
    /// Grid width in small-widget slots (2: an iPhone's four icon columns).
    public var columns: Int = 2
    /// Screen pixels per point.
    public var scale: Double = 1
    /// The monitor(s) of every desktop widget `outputs` does not name.
    public var output: String = OutputSelector.primary
    /// Widget id → the monitor(s) of that widget, overriding `output`.
    public var outputs: [String: String] = [:]

    public init() {}

    static let keys: Set<String> = ["widgets", "anchor", "margin", "gap", "columns", "scale", "output", "outputs", "comment"]

    /// Parses the section at `path`; `widgetIDs`, when the config lists its widgets, are the ids a
    /// desktop widget must name.
    static func parse(_ v: JSONValue, at path: String, widgetIDs: Set<String>?) throws(ConfigError) -> DesktopConfig {
        guard case .object(let o) = v else {
            throw ConfigError(path: path, reason: "expected an object, found \(ConfigParser.typeName(v))")
        }
        if let unknown = o.keys.sorted().first(where: { !keys.contains($0) }) {
            throw ConfigError(path: "\(path).\(unknown)", reason: "unknown key (known keys: \(keys.subtracting(["comment"]).sorted().joined(separator: ", ")))")
        }
        var c = DesktopConfig()
        if let w = o["widgets"] {
            for (i, item) in try ConfigParser.array(w, at: "\(path).widgets").enumerated() {
                let id = try ConfigParser.string(item, at: "\(path).widgets[\(i)]")
                if let widgetIDs, !widgetIDs.contains(id) {
                    throw ConfigError(path: "\(path).widgets[\(i)]", reason: "no widget \"\(id)\" in widgets (ids: \(widgetIDs.sorted().joined(separator: ", ")))")
                }
                guard !c.widgets.contains(id) else { throw ConfigError(path: "\(path).widgets[\(i)]", reason: "\"\(id)\" is listed twice") }
                c.widgets.append(id)
            }
        }
        if let a = o["anchor"] {
            let s = try ConfigParser.string(a, at: "\(path).anchor")
            guard let anchor = Anchor(rawValue: s) else {
                throw ConfigError(path: "\(path).anchor", reason: "unknown anchor \"\(s)\" (one of: \(Anchor.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            c.anchor = anchor
        }
        if let m = o["margin"] { c.margin = try ConfigParser.number(m, at: "\(path).margin", min: 0, max: 10_000) }
        if let g = o["gap"] { c.gap = try ConfigParser.number(g, at: "\(path).gap", min: 0, max: 1_000) }
        if let n = o["columns"] { c.columns = Int(try ConfigParser.number(n, at: "\(path).columns", min: 1, max: 16)) }
        if let s = o["scale"] { c.scale = try ConfigParser.number(s, at: "\(path).scale", min: 0.25, max: 8) }
        if let v = o["output"] { c.output = try OutputSelector.parse(v, at: "\(path).output") }
        if let v = o["outputs"] {
            guard case .object(let map) = v else {
                throw ConfigError(path: "\(path).outputs", reason: "expected an object of widget id → output, found \(ConfigParser.typeName(v))")
            }
            for id in map.keys.sorted() {
                // A widget the desktop does not show would wait on its monitor for nothing: a typo.
                if !c.widgets.isEmpty, !c.widgets.contains(id) {
                    throw ConfigError(path: "\(path).outputs.\(id)", reason: "\"\(id)\" is not in desktop.widgets (\(c.widgets.joined(separator: ", ")))")
                }
                if let widgetIDs, !widgetIDs.contains(id) {
                    throw ConfigError(path: "\(path).outputs.\(id)", reason: "no widget \"\(id)\" in widgets (ids: \(widgetIDs.sorted().joined(separator: ", ")))")
                }
                c.outputs[id] = try OutputSelector.parse(map[id]!, at: "\(path).outputs.\(id)")
            }
        }
        return c
    }
}
