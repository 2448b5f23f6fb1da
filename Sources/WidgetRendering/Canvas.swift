/// A character grid the system-family layout draws into. Writes outside it are dropped, so
/// nothing drawn can allocate beyond the grid. Wide characters take two cells; writing over
/// half of one clears the other half.
struct Canvas {
    let columns: Int
    let rows: Int
    /// Row-major cells; `nil` is blank, `""` the right half of a wide character.
    private var cells: [String?]

    init(columns: Int, rows: Int) {
        self.columns = max(0, columns); self.rows = max(0, rows)
        cells = Array(repeating: nil, count: self.columns * self.rows)
    }

    /// Puts `c` at column `x`, row `y`; returns the columns it advances (its width).
    @discardableResult
    mutating func put(_ c: Character, x: Int, y: Int) -> Int {
        let w = displayWidth(of: c)
        guard w > 0 else { return 0 }
        guard y >= 0, y < rows, x >= 0, x + w <= columns else { return w }
        clear(x: x, y: y)
        if w == 2 { clear(x: x + 1, y: y) }
        cells[y * columns + x] = String(c)
        if w == 2 { cells[y * columns + x + 1] = "" }
        return w
    }

    /// Blanks one cell, and the other half of a wide character it belongs to.
    private mutating func clear(x: Int, y: Int) {
        let i = y * columns + x
        if cells[i] == "", x > 0 { cells[i - 1] = nil }
        if let s = cells[i], !s.isEmpty, displayWidth(of: s) == 2, x + 1 < columns { cells[i + 1] = nil }
        cells[i] = nil
    }

    /// Writes `s` from column `x` on row `y`; spaces are transparent.
    mutating func write(_ s: String, x: Int, y: Int) {
        guard y >= 0, y < rows else { return }
        var cx = x
        for c in s {
            if cx >= columns { break }
            if c == " " { cx += 1; continue }
            cx += put(c, x: cx, y: y)
        }
    }

    /// Fills the part of a rectangle inside the grid with `c`.
    mutating func fill(_ c: Character, x: Int, y: Int, width: Int, height: Int) {
        let x0 = max(x, 0), y0 = max(y, 0)
        let x1 = min(x + width, columns), y1 = min(y + height, rows)
        guard x0 < x1, y0 < y1 else { return }
        for yy in y0..<y1 { for xx in x0..<x1 { put(c, x: xx, y: yy) } }
    }

    /// The rows as text, trailing blanks trimmed per line.
    var lines: [String] {
        (0..<rows).map { y in
            var line = ""
            for x in 0..<columns {
                switch cells[y * columns + x] {
                case nil: line += " "
                case let s?: line += s
                }
            }
            while line.last == " " { line.removeLast() }
            return line
        }
    }
}
