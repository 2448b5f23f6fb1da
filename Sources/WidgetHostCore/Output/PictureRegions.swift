import FoundationEssentials

/// `out/<id>.regions.json`, written beside each picture: where its controls are, in the
/// picture's pixels, so any reader (the desktop surface, a bar's click handler, `widgethost
/// click <id> --at x,y`) can turn a click at a point into what a tap means on iOS. Value type.
///
/// ```json
/// {"width":316,"height":316,"scale":2,"regions":[
///   {"kind":"widgetURL","x":0,"y":0,"width":316,"height":316,"url":"myapp://habit"},
///   {"kind":"button","x":24,"y":200,"width":120,"height":44,"target":"0","title":"Log Habit"}]}
/// ```
/// Later regions are on top: the widget's URL area comes first, its controls after.
public struct PictureRegions: Codable, Equatable, Sendable {
    public struct Region: Codable, Equatable, Sendable {
        /// `button`, `toggle`, `link` or `widgetURL`.
        public var kind: String
        public var x: Double
        public var y: Double
        public var width: Double
        public var height: Double
        /// For controls: the `action.id` that `click --target` takes.
        public var target: String?
        /// The control's title or label, for people and tooltips.
        public var title: String?
        /// For `link` and `widgetURL`: the URL opened.
        public var url: String?

        public init(kind: String, x: Double, y: Double, width: Double, height: Double,
                    target: String? = nil, title: String? = nil, url: String? = nil) {
            self.kind = kind; self.x = x; self.y = y; self.width = width; self.height = height
            self.target = target; self.title = title; self.url = url
        }

        public func contains(x px: Double, y py: Double) -> Bool {
            px >= x && py >= y && px < x + width && py < y + height
        }
    }

    /// The picture's size in pixels, and its pixels per point.
    public var width: Double
    public var height: Double
    public var scale: Double
    public var regions: [Region]

    public init(width: Double, height: Double, scale: Double, regions: [Region]) {
        self.width = width; self.height = height; self.scale = scale; self.regions = regions
    }

    /// The region a click at pixel (`x`, `y`) lands in: the topmost that contains it, nil when
    /// none does (or the point is outside the picture or not a number).
    public func hit(x: Double, y: Double) -> Region? {
        guard x.isFinite, y.isFinite, x >= 0, y >= 0, x < width, y < height else { return nil }
        return regions.last { $0.contains(x: x, y: y) }
    }

    public static func fileName(for id: String) -> String { id + ".regions.json" }

    /// The pixels per point a picture is drawn at (`picture.scale`, `preview --scale`).
    public static let scales: ClosedRange<Double> = 1...3
    /// The longest side, in pixels, of any picture: the largest family (`systemExtraLarge`,
    /// 715 pt wide) at the largest scale, rounded up.
    public static let maxSide: Double = 2200

    /// Parses a regions file; nil when it is not one (a torn or foreign file keeps the last
    /// good). Every number is checked, since each ends up in a transformation matrix or an
    /// integer: the scale one of `scales`, the size positive and at most `maxSide`, every
    /// region's rectangle finite with a non-negative size (a reader divides by the scale,
    /// multiplies by it and converts clicks to whole pixels).
    public static func decode(_ data: Data) -> PictureRegions? {
        guard let r = try? JSONDecoder().decode(PictureRegions.self, from: data), r.isValid else { return nil }
        return r
    }

    /// Whether every number is one a reader can use (`decode`'s rules).
    public var isValid: Bool {
        let side = 1...Self.maxSide
        guard Self.scales.contains(scale), side.contains(width), side.contains(height) else { return false }
        return regions.allSatisfy { r in
            [r.x, r.y, r.width, r.height].allSatisfy { $0.isFinite && abs($0) <= 2 * Self.maxSide } && r.width >= 0 && r.height >= 0
        }
    }

    public func encoded() -> Data {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? e.encode(self)) ?? Data("{}".utf8)
    }
}
