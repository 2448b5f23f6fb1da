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

    /// Parses a regions file; nil when it is not one (a torn or foreign file keeps the last good).
    public static func decode(_ data: Data) -> PictureRegions? {
        guard let r = try? JSONDecoder().decode(PictureRegions.self, from: data),
              r.width.isFinite, r.height.isFinite, r.scale.isFinite, r.scale > 0 else { return nil }
        return r
    }

    public func encoded() -> Data {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? e.encode(self)) ?? Data("{}".utf8)
    }
}
