import FoundationEssentials

/// The string of a `Text("…")` literal, with interpolation resolved at creation.
///
/// The SDK does not localise: the key is the text. Interpolated values render with
/// `description` (so `"\(7.5)"` gives `"7.5"`, not SwiftUI's `%lf` form), and
/// `\(value, format: style)` with the style in the process's locale. What must stay live or keep a
/// style is kept as runs, as SwiftUI does: a live date (`\(date, style: .time)`,
/// `\(date, format: .dateTime…)`, `\(start...end)`, `\(timerInterval:)`) is rendered by the host
/// at display time in the user's locale, and an interpolated `Text` keeps its own style
/// (`"Due \(Text(d, style: .relative).bold())"`). `Text(key)` of such a key is the concatenation
/// of its runs; `key` is the plain text (live dates contribute nothing to it).
///
/// Values only; safe to use from any thread.
public struct LocalizedStringKey: ExpressibleByStringInterpolation, Hashable, Sendable {
    public let key: String
    /// The runs, when an interpolation is live or styled; nil for plain text.
    let runs: [Text]?

    public init(_ value: String) { key = value; runs = nil }
    public init(stringLiteral value: String) { key = value; runs = nil }
    public init(stringInterpolation: StringInterpolation) {
        key = stringInterpolation.output
        runs = stringInterpolation.keepsRuns ? stringInterpolation.parts : nil
    }

    /// The text of this key: its runs concatenated (each with its style and live date), or its
    /// plain string.
    var text: Text {
        guard let runs, let first = runs.first else { return Text(verbatim: key) }
        return runs.dropFirst().reduce(first, +)
    }

    public struct StringInterpolation: StringInterpolationProtocol {
        var output = ""
        /// Every literal and value in order, as texts.
        var parts: [Text] = []
        /// Whether some part is live or styled, so the key must keep its runs.
        var keepsRuns = false

        public init(literalCapacity: Int, interpolationCount: Int) {
            output.reserveCapacity(literalCapacity)
            parts.reserveCapacity(2 * interpolationCount + 1)
        }
        public mutating func appendLiteral(_ literal: String) { appendPlain(literal) }
        public mutating func appendInterpolation(_ string: String) { appendPlain(string) }
        public mutating func appendInterpolation<T>(_ value: T) {
            if let text = value as? Text { appendInterpolation(text) } else { appendPlain(String(describing: value)) }
        }
        public mutating func appendInterpolation<F: TextFormatStyle>(_ value: F.FormatInput, format: F) {
            if format is DateTimeFormatStyle, value is Date {
                appendInterpolation(Text(value, format: format))
            } else {
                appendPlain(format.format(value))
            }
        }
        /// A text, keeping its style and live date (`"Next: \(Text(d, style: .time).bold())"`).
        public mutating func appendInterpolation(_ text: Text) {
            output += text.plainText
            parts.append(text)
            if text.date != nil || text.runs != nil || !text.style.isEmpty { keepsRuns = true }
        }
        /// A live date: `"Next: \(date, style: .time)"`.
        public mutating func appendInterpolation(_ date: Date, style: Text.DateStyle) {
            appendInterpolation(Text(date, style: style))
        }
        /// A live range: `"\(start...end)"`.
        public mutating func appendInterpolation(_ dates: ClosedRange<Date>) { appendInterpolation(Text(dates)) }
        /// A live range: `"\(interval)"`.
        public mutating func appendInterpolation(_ interval: DateInterval) { appendInterpolation(Text(interval)) }
        /// A live timer: `"Ends in \(timerInterval: start...end)"`.
        public mutating func appendInterpolation(timerInterval: ClosedRange<Date>, pauseTime: Date? = nil, countsDown: Bool = true, showsHours: Bool = true) {
            appendInterpolation(Text(timerInterval: timerInterval, pauseTime: pauseTime, countsDown: countsDown, showsHours: showsHours))
        }

        private mutating func appendPlain(_ string: String) {
            guard !string.isEmpty else { return }
            output += string
            parts.append(Text(verbatim: string))
        }
    }
}
