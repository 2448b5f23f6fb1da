import FoundationEssentials
import Glibc

/// Draws shapes on the character grid. Circles keep a round aspect (a cell is twice as tall as
/// wide) and sit centred in their frame; ellipses fill it. A stroked circle is an outline; a
/// trimmed one an arc, measured as SwiftUI measures it: from 3 o'clock, clockwise, turned by
/// `rotationEffect` — so the usual ring (`.trim(from: 0, to: p).rotationEffect(.degrees(-90))`)
/// starts at 12 o'clock. Rectangles, rounded rectangles and capsules fill as shaded blocks, or
/// outline with box-drawing characters when stroked. Only cells inside the grid are visited.
enum ShapeDrawing {
    /// The block character for a density (opacity) in 0…1: █ ▓ ▒ ░, or nil when invisible.
    static func shade(_ d: Double) -> Character? {
        guard d.isFinite else { return "█" }
        switch d {
        case 0.8...: return "█"
        case 0.55...: return "▓"
        case 0.3...: return "▒"
        case 0.02...: return "░"
        default: return nil
        }
    }

    static func draw(_ s: ShapePaint, x: Int, y: Int, width: Int, height: Int, on canvas: inout Canvas) {
        guard width > 0, height > 0 else { return }
        switch s.type {
        case "circle", "ellipse":
            var rx = Double(width) / 2, ry = Double(height) / 2
            if s.type == "circle" {
                let d = min(Double(width) * 8, Double(height) * 16)   // diameter in points
                rx = d / 16; ry = d / 32
            }
            let cx = Double(x) + Double(width) / 2, cy = Double(y) + Double(height) / 2
            if let f = s.fill { fillEllipse(f, cx: cx, cy: cy, rx: rx, ry: ry, on: &canvas) }
            if let c = s.stroke { arc(c, cx: cx, cy: cy, rx: rx, ry: ry, paint: s, on: &canvas) }
        default:
            if let f = s.fill { canvas.fill(f, x: x, y: y, width: width, height: height) }
            if let c = s.stroke { box(c, rounded: s.type != "rectangle", x: x, y: y, width: width, height: height, on: &canvas) }
        }
    }

    private static func fillEllipse(_ c: Character, cx: Double, cy: Double, rx: Double, ry: Double, on canvas: inout Canvas) {
        guard rx > 0, ry > 0 else { return }
        let x0 = max(0, Int(saturating: (cx - rx).rounded(.down))), x1 = min(canvas.columns, Int(saturating: (cx + rx).rounded(.up)))
        let y0 = max(0, Int(saturating: (cy - ry).rounded(.down))), y1 = min(canvas.rows, Int(saturating: (cy + ry).rounded(.up)))
        guard x0 < x1, y0 < y1 else { return }
        for yy in y0..<y1 {
            for xx in x0..<x1 {
                let dx = (Double(xx) + 0.5 - cx) / rx, dy = (Double(yy) + 0.5 - cy) / ry
                if dx * dx + dy * dy <= 1 { canvas.put(c, x: xx, y: yy) }
            }
        }
    }

    /// The outline, or the trimmed part of it: the cells whose centres lie within half a cell
    /// of the ellipse (measured in the ellipse's normalised coordinates).
    private static func arc(_ c: Character, cx: Double, cy: Double, rx: Double, ry: Double, paint s: ShapePaint,
                            on canvas: inout Canvas) {
        let from = s.trimFrom.isFinite ? min(max(s.trimFrom, 0), 1) : 0
        let to = s.trimTo.isFinite ? min(max(s.trimTo, 0), 1) : 1
        guard to > from, rx > 0, ry > 0 else { return }
        let band = 0.5 / min(rx, ry)
        let rot = (s.rotation.isFinite ? s.rotation : 0) / 360
        let x0 = max(0, Int(saturating: (cx - rx).rounded(.down))), x1 = min(canvas.columns, Int(saturating: (cx + rx).rounded(.up)))
        let y0 = max(0, Int(saturating: (cy - ry).rounded(.down))), y1 = min(canvas.rows, Int(saturating: (cy + ry).rounded(.up)))
        guard x0 < x1, y0 < y1 else { return }
        for yy in y0..<y1 {
            for xx in x0..<x1 {
                let dx = (Double(xx) + 0.5 - cx) / rx, dy = (Double(yy) + 0.5 - cy) / ry
                let r = (dx * dx + dy * dy).squareRoot()
                guard abs(r - 1) <= band else { continue }
                if from > 0 || to < 1 {
                    // SwiftUI's path starts at 3 o'clock and runs clockwise (y grows downwards).
                    var f = atan2(dy, dx) / (2 * .pi) - rot
                    f -= f.rounded(.down)
                    guard f >= from && f <= to else { continue }
                }
                canvas.put(c, x: xx, y: yy)
            }
        }
    }

    private static func box(_ c: Character, rounded: Bool, x: Int, y: Int, width: Int, height: Int, on canvas: inout Canvas) {
        if height == 1 { canvas.fill("─", x: x, y: y, width: width, height: 1); return }
        if width == 1 { canvas.fill("│", x: x, y: y, width: 1, height: height); return }
        canvas.fill("─", x: x + 1, y: y, width: width - 2, height: 1)
        canvas.fill("─", x: x + 1, y: y + height - 1, width: width - 2, height: 1)
        canvas.fill("│", x: x, y: y + 1, width: 1, height: height - 2)
        canvas.fill("│", x: x + width - 1, y: y + 1, width: 1, height: height - 2)
        canvas.put(rounded ? "╭" : "┌", x: x, y: y)
        canvas.put(rounded ? "╮" : "┐", x: x + width - 1, y: y)
        canvas.put(rounded ? "╰" : "└", x: x, y: y + height - 1)
        canvas.put(rounded ? "╯" : "┘", x: x + width - 1, y: y + height - 1)
    }
}
