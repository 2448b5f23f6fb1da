/// The damage of the last frames presented on one output, so that a buffer still holding an
/// older frame (`PixelBuffer.age`) is brought up to date by redrawing only what changed since:
/// a buffer of age N holds the frame presented N frames ago, so the new frame's damage and that
/// of the N − 1 frames before it are redrawn; age 0, an age older than the history, or a
/// changed buffer size redraws everything.
///
/// Value type; used on the surface's thread.
public struct DamageHistory: Equatable, Sendable {
    /// Frames remembered (a backend lends two or three buffers).
    public static let depth = 4
    /// At most this many rectangles are kept per frame; more become their bounding box.
    public static let maxRects = 16

    /// Each presented frame's own damage, oldest first.
    private var frames: [[PixelRect]] = []
    /// The buffer size the history is about.
    private var width = 0, height = 0

    public init() {}

    /// What to redraw in a `width` × `height` buffer of `age` for a frame whose own damage is
    /// `damage`: `damage` ∪ the last `age − 1` frames' damage, or the whole buffer.
    public func redraw(age: Int, damage: [PixelRect], width: Int, height: Int) -> [PixelRect] {
        let whole = PixelRect(x: 0, y: 0, width: width, height: height)
        guard age > 0, age - 1 <= frames.count, self.width == width, self.height == height else { return width > 0 && height > 0 ? [whole] : [] }
        var rects = damage
        for f in frames.suffix(age - 1) { rects += f }
        return Self.simplified(rects, within: whole)
    }

    /// Records a presented frame's own damage (what changed since the frame before it).
    public mutating func record(_ damage: [PixelRect], width: Int, height: Int) {
        if self.width != width || self.height != height { frames = []; self.width = width; self.height = height }
        frames.append(Self.simplified(damage, within: PixelRect(x: 0, y: 0, width: width, height: height)))
        if frames.count > Self.depth { frames.removeFirst(frames.count - Self.depth) }
    }

    /// Forgets every frame: the next buffer of any age is drawn whole.
    public mutating func reset() { frames = [] }

    /// `rects` clipped to `bounds`, empty ones dropped, overlapping ones merged into their
    /// bounding box (so a clip made of them is disjoint boxes), and the bounding box of all when
    /// more than `maxRects` remain.
    public static func simplified(_ rects: [PixelRect], within bounds: PixelRect) -> [PixelRect] {
        var out: [PixelRect] = []
        for r in rects {
            guard var c = r.intersection(bounds) else { continue }
            // Overlapping rectangles become their bounding box, until none overlap.
            while let i = out.firstIndex(where: { $0.intersection(c) != nil }) { c = c.union(out.remove(at: i)) }
            out.append(c)
        }
        if out.count > maxRects, let first = out.first { return [out.dropFirst().reduce(first) { $0.union($1) }] }
        return out
    }
}

extension PixelRect {
    /// The part of `self` inside `other`, nil when they do not overlap.
    public func intersection(_ other: PixelRect) -> PixelRect? {
        let x0 = max(x, other.x), y0 = max(y, other.y)
        let x1 = min(x + width, other.x + other.width), y1 = min(y + height, other.y + other.height)
        return x1 > x0 && y1 > y0 ? PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0) : nil
    }

    /// The smallest rectangle holding both.
    public func union(_ other: PixelRect) -> PixelRect {
        let x0 = min(x, other.x), y0 = min(y, other.y)
        return PixelRect(x: x0, y: y0, width: max(x + width, other.x + other.width) - x0, height: max(y + height, other.y + other.height) - y0)
    }

    public func contains(_ other: PixelRect) -> Bool {
        other.x >= x && other.y >= y && other.x + other.width <= x + width && other.y + other.height <= y + height
    }

    /// The pixels a rectangle of logical points covers at `scale`, moved by (`dx`, `dy`) pixels:
    /// outward to whole pixels (nil when not finite).
    public init?(covering r: LogicalRect, scale: Double, dx: Double = 0, dy: Double = 0) {
        let x0 = (dx + r.x * scale).rounded(.down), y0 = (dy + r.y * scale).rounded(.down)
        let x1 = (dx + (r.x + r.width) * scale).rounded(.up), y1 = (dy + (r.y + r.height) * scale).rounded(.up)
        guard [x0, y0, x1, y1].allSatisfy({ $0.isFinite && abs($0) < 1e9 }) else { return nil }
        self.init(x: Int(x0), y: Int(y0), width: Int(x1 - x0), height: Int(y1 - y0))
    }
}
