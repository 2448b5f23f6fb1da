import WidgetRendering

/// The size text takes: what the layout asks the text engine (Pango in `WidgetGraphics`, a
/// fixed-advance fake in tests).
public struct TextMeasurement: Hashable, Sendable {
    /// Width of the widest shown line, in points.
    public var width: Double
    /// Height of the shown lines, in points.
    public var height: Double
    /// Height of one line (the step between baselines).
    public var lineHeight: Double
    /// Distance from the top to the first line's baseline.
    public var baseline: Double
    /// Whether lines or characters were cut (an ellipsis "…" is shown).
    public var truncated: Bool

    public init(width: Double, height: Double, lineHeight: Double, baseline: Double, truncated: Bool) {
        self.width = width; self.height = height; self.lineHeight = lineHeight; self.baseline = baseline; self.truncated = truncated
    }
}

/// The box an `Image(systemName:)` takes at a font, as SF Symbols size it: as wide as its glyph
/// (not a square), and vertically centred on the cap height of the text beside it. A value:
/// safe from any thread.
public struct SymbolMeasurement: Hashable, Sendable {
    /// Width and height of the symbol's box, in points.
    public var width: Double
    public var height: Double
    /// Distance from the top of the box to the text baseline it sits on (the box's middle is
    /// half a cap height above it).
    public var baseline: Double

    public init(width: Double, height: Double, baseline: Double) {
        self.width = width; self.height = height; self.baseline = baseline
    }

    /// Cap height of the text face (Inter: 1490 / 2048 em), on whose middle symbols are centred.
    public static let capHeight = 0.7275

    /// A `width` × `height` box centred on the cap height of text of `size` points.
    public static func centred(width: Double, height: Double, size: Double) -> SymbolMeasurement {
        SymbolMeasurement(width: width, height: height, baseline: height / 2 + capHeight * size / 2)
    }

    /// The box of a symbol whose glyph is not known (and of the fallback box drawn for a name
    /// with no icon): a square of 1.2 × the font size, rounded to whole points.
    public static func square(size: Double) -> SymbolMeasurement {
        let side = (size * 1.2).rounded()
        return centred(width: side, height: side, size: size)
    }
}

/// Measures text for the layout.
///
/// Contract: `text` is wrapped at word boundaries to `width` (nil: not wrapped, only hard line
/// breaks), at most `maxLines` lines are shown (nil: all), and a cut line ends in "…"; the same
/// arguments always give the same answer, and a drawing with the same arguments fills exactly
/// the measured box. Threading: a measurer is used by one layout at a time, on the caller's
/// thread; implementations need not be thread-safe.
public protocol TextMeasurer {
    func measure(_ text: String, font: ResolvedFont, width: Double?, maxLines: Int?) -> TextMeasurement
    /// The box of `Image(systemName: symbol)` in `font` (same contract: the same arguments give
    /// the same answer, and the symbol drawn fills that box). Default: `SymbolMeasurement.square`.
    func measureSymbol(_ symbol: String, font: ResolvedFont) -> SymbolMeasurement
    /// True only when `a` and `b` give the same answer to every `measure` in every size of
    /// `font` (`font.scaled(_:)`, any width and line count): a later layout of a tree whose
    /// only change is `a` written as `b` places everything where it was (`LiveTextRestamp`).
    /// False is always safe. Default: `a == b`.
    func measuresAlike(_ a: String, _ b: String, font: ResolvedFont) -> Bool
}

extension TextMeasurer {
    public func measureSymbol(_ symbol: String, font: ResolvedFont) -> SymbolMeasurement {
        SymbolMeasurement.square(size: font.size)
    }

    public func measuresAlike(_ a: String, _ b: String, font: ResolvedFont) -> Bool { a == b }
}

/// A measurer with exact, font-independent numbers: every character advances
/// `advance × size`, a line is `lineHeight × size` tall, words wrap greedily (a word longer than
/// the line is broken), and a cut line keeps as many characters as fit with "…" (one advance).
/// For tests and for layouts that must not touch a text engine. A value: safe from any thread.
public struct FixedAdvanceTextMeasurer: TextMeasurer, Sendable {
    public var advance: Double
    public var lineHeight: Double
    public init(advance: Double = 0.5, lineHeight: Double = 1.2) { self.advance = advance; self.lineHeight = lineHeight }

    /// Alike when both have as many characters, with their spaces and line breaks in the same
    /// places: the only characters a measurement here reads apart.
    public func measuresAlike(_ a: String, _ b: String, font: ResolvedFont) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { x, y in (x == " ") == (y == " ") && (x == "\n") == (y == "\n") }
    }

    public func measure(_ text: String, font: ResolvedFont, width: Double?, maxLines: Int?) -> TextMeasurement {
        let a = advance * font.size, lh = lineHeight * font.size
        let maxChars: Int? = width.map { w in a > 0 ? max(0, Int(saturating: (w / a + 1e-9).rounded(.down))) : Int.max }
        var lines: [Int] = []  // characters per line
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            guard let limit = maxChars else { lines.append(paragraph.count); continue }
            var current = 0
            for word in paragraph.split(separator: " ", omittingEmptySubsequences: false) {
                var w = word.count
                let needed = current == 0 ? w : current + 1 + w
                if needed <= limit { current = needed; continue }
                if current > 0 { lines.append(current); current = 0 }
                while w > limit && limit > 0 { lines.append(limit); w -= limit }
                if limit == 0 { lines.append(0); break }
                current = w
            }
            lines.append(current)
        }
        var truncated = false
        if let m = maxLines, lines.count > max(1, m) {
            lines = Array(lines.prefix(max(1, m)))
            truncated = true
            if let limit = maxChars { lines[lines.count - 1] = limit }
            else { lines[lines.count - 1] += 1 }
        }
        if let limit = maxChars, lines.contains(where: { $0 > limit }) {
            truncated = true
            lines = lines.map { min($0, limit) }
        }
        let widest = Double(lines.max() ?? 0) * a
        return TextMeasurement(width: widest, height: Double(lines.count) * lh, lineHeight: lh, baseline: font.size, truncated: truncated)
    }
}
