import FoundationEssentials

/// Text, evaluated to a `text` node whose `text` is the final string (interpolation and
/// `format:` resolved in the plugin, en_US), or whose `date` is a live `DateText` the host
/// renders at display time (`Text(date, style:)`, `Text(start...end)`, `Text(timerInterval:)`).
public struct Text: View, PrimitiveView, Hashable {
    public typealias Body = Never
    var string: String?
    var date: DateText?

    /// Text of a string literal (with interpolation).
    public init(_ key: LocalizedStringKey) { string = key.key }
    /// `Text(key, tableName:bundle:comment:)` — tables are ignored (no localisation yet).
    public init(_ key: LocalizedStringKey, tableName: String?, comment: StaticString? = nil) { string = key.key }
    /// Text of a string value, verbatim.
    @_disfavoredOverload public init<S: StringProtocol>(_ content: S) { string = String(content) }
    /// Text shown exactly as given.
    public init(verbatim content: String) { string = content }
    /// The characters of an attributed string (its attributes are not carried yet).
    @_disfavoredOverload public init(_ attributedContent: AttributedString) { string = String(attributedContent.characters) }

    /// A value formatted by a style: `Text(x, format: .number.precision(.fractionLength(1)))`.
    /// A `.dateTime` style gives a live `time` or `date` node.
    public init<F: TextFormatStyle>(_ input: F.FormatInput, format: F) {
        if let dateStyle = format as? DateTimeFormatStyle, let d = input as? Date {
            date = DateText(style: dateStyle.liveStyle, date: d)
        } else {
            string = format.format(input)
        }
    }

    /// The styles of a live date.
    public struct DateStyle: Hashable, Sendable {
        public let name: String
        /// Time of day (`9:41 AM`).
        public static let time = DateStyle(name: "time")
        /// Date (`June 3, 2019`).
        public static let date = DateStyle(name: "date")
        /// Time until / since the date (`2 hr, 3 min`).
        public static let relative = DateStyle(name: "relative")
        /// Offset from now (`+2 hours`).
        public static let offset = DateStyle(name: "offset")
        /// A counting timer (`36:59:01`).
        public static let timer = DateStyle(name: "timer")
    }

    /// A live date: `DateText(style: <style>, date:)`.
    public init(_ date: Date, style: DateStyle) { self.date = DateText(style: style.name, date: date) }

    /// A live range `start – end`: `DateText(style: "range", start:, end:)`.
    public init(_ dates: ClosedRange<Date>) {
        date = DateText(style: "range", start: dates.lowerBound, end: dates.upperBound)
    }

    /// A live range from an interval.
    public init(_ interval: DateInterval) {
        date = DateText(style: "range", start: interval.start, end: interval.end)
    }

    /// A live timer over an interval: `DateText(style: "timer", start:, end:, countsDown:)`.
    /// `pauseTime` and `showsHours` are accepted and not serialized.
    public init(timerInterval: ClosedRange<Date>, pauseTime: Date? = nil, countsDown: Bool = true, showsHours: Bool = true) {
        date = DateText(style: "timer", start: timerInterval.lowerBound, end: timerInterval.upperBound, countsDown: countsDown)
    }

    /// The string (empty for a live date).
    var plainText: String { string ?? "" }

    func makeNodes() -> [ViewNode] {
        var n = ViewNode(kind: .text)
        n.text = string
        n.date = date
        return [n]
    }

    /// Concatenation of two plain texts (a live date operand keeps only the left live date).
    public static func + (lhs: Text, rhs: Text) -> Text {
        if lhs.date == nil && rhs.date == nil { return Text(verbatim: lhs.plainText + rhs.plainText) }
        return lhs.date != nil ? lhs : rhs
    }
}
