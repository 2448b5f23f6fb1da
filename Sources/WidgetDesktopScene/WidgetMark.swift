import WidgetLayout

/// The mark on a widget that is not current: "stale" (its entry is past its time and no newer
/// one came) or "not running" (its bundle is not running). Drawn as a small pill over the dimmed
/// widget, in a corner where it covers none of the widget's text, images or controls — never
/// its title (the first text in reading order) — so the widget still says what it is.
/// Geometry only. Value type; any thread.
public enum WidgetMark: String, Equatable, Sendable {
    case stale = "stale"
    case notRunning = "not running"

    /// The mark a widget in this state gets, nil when it is current.
    public init?(stale: Bool, running: Bool) {
        if !running { self = .notRunning } else if stale { self = .stale } else { return nil }
    }

    public var text: String { rawValue }

    /// The pill's height, its text's padding each side and its distance from the widget's edges.
    public static let height = 18.0
    public static let padding = 6.0
    public static let inset = 8.0
    public static let font = ResolvedFont(size: 11, weight: 700)

    /// Where the pill of a text `textWidth` points wide goes in a widget of `width` × `height`
    /// laid out as `placed` (nil: nothing drawn yet), in widget points: the first of top-trailing,
    /// bottom-trailing, bottom-leading and top-leading that meets no text, image or control;
    /// else the first that keeps off the title.
    public static func frame(textWidth: Double, width: Double, height: Double, placed: PlacedNode?) -> Rect {
        let w = min(textWidth + 2 * padding, max(0, width - 2 * inset)), h = Self.height
        let corners = [Rect(x: width - inset - w, y: inset, width: w, height: h),
                       Rect(x: width - inset - w, y: height - inset - h, width: w, height: h),
                       Rect(x: inset, y: height - inset - h, width: w, height: h),
                       Rect(x: inset, y: inset, width: w, height: h)]
        var content: [Rect] = [], title: Rect?
        placed?.walk { p in
            switch p.node.kind {
            case .text:
                guard let t = p.text, !t.string.isEmpty else { return }
                if title == nil { title = p.contentFrame }
                content.append(p.contentFrame)
            case .image, .button, .toggle, .link, .gauge, .progress: content.append(p.frame)
            default: break
            }
        }
        if let free = corners.first(where: { c in !content.contains { meets(c, $0) } }) { return free }
        // Every corner covers something: the one covering least, off the title.
        let offTitle = corners.filter { c in title.map { !meets(c, $0) } ?? true }
        let covered = { (c: Rect) in content.reduce(0.0) { $0 + overlap(c, $1) } }
        return offTitle.min { covered($0) < covered($1) } ?? corners[1]
    }

    static func meets(_ a: Rect, _ b: Rect) -> Bool { overlap(a, b) > 0 }

    /// The area `a` and `b` share.
    static func overlap(_ a: Rect, _ b: Rect) -> Double {
        max(0, min(a.maxX, b.maxX) - max(a.x, b.x)) * max(0, min(a.maxY, b.maxY) - max(a.y, b.y))
    }
}
