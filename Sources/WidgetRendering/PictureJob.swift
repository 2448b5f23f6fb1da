import FoundationEssentials
import OpenWidgetKit

/// A batch of pictures for the render process (`widgethost-render`): the evaluated trees and
/// where to write each as PNG and/or SVG. `widgethost preview --png/--svg` builds one and hands
/// it over in a file, so `widgethost` itself (the daemon, every worker) never links Cairo
/// (DESIGN §11). Encoded with `WireCodec`. A plain value: safe from any thread.
public struct PictureJob: Codable, Sendable {
    /// One widget picture.
    public struct Item: Codable, Sendable {
        public var family: WidgetFamily
        /// The instant live dates are drawn at.
        public var now: Date
        public var view: ViewNode
        /// Output paths (nil: not in that format).
        public var png: String?
        public var svg: String?
        public init(family: WidgetFamily, now: Date, view: ViewNode, png: String?, svg: String?) {
            self.family = family; self.now = now; self.view = view; self.png = png; self.svg = svg
        }
    }

    /// A contact sheet: one row per widget, each family side by side.
    public struct Sheet: Codable, Sendable {
        public struct Row: Codable, Sendable {
            public var caption: String
            public var families: [WidgetFamily]
            public var views: [ViewNode]
            public init(caption: String, families: [WidgetFamily], views: [ViewNode]) {
                self.caption = caption; self.families = families; self.views = views
            }
        }
        public var title: String
        public var rows: [Row]
        public var png: String?
        public var svg: String?
        public init(title: String, rows: [Row], png: String?, svg: String?) {
            self.title = title; self.rows = rows; self.png = png; self.svg = svg
        }
    }

    /// Pixels per point (1, 2 or 3).
    public var scale: Double
    public var dark: Bool
    /// The sheets' date.
    public var now: Date
    public var items: [Item]
    public var sheets: [Sheet]
    /// The accented rendering mode's tint (`preview --tint`, `AccentTint`); nil: full colour.
    public var tint: String?

    public init(scale: Double, dark: Bool, now: Date, items: [Item], sheets: [Sheet], tint: String? = nil) {
        self.scale = scale; self.dark = dark; self.now = now; self.items = items; self.sheets = sheets; self.tint = tint
    }
}
