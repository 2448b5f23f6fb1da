import FoundationEssentials

/// Text, evaluated to a `text` node whose `text` is the final string (interpolation and
/// `format:` resolved in the plugin, in its locale), or whose `date` is a live `DateText` the host
/// renders at display time (`Text(date, style:)`, `Text(start...end)`, `Text(timerInterval:)`).
///
/// `Text + Text` keeps each operand as a run with its own style and live date: the node then
/// has `children`, one `text` node per run (role `"run"`), and no `text` of its own. The
/// text-only modifiers below (`bold()`, `font(_:)`, `foregroundColor(_:)`…) return `Text`, so
/// they can style one run; on a concatenation they style every run that does not set its own.
public struct Text: View, PrimitiveView, Hashable, Sendable {
    public typealias Body = Never
    var string: String?
    var date: DateText?
    /// The style set by `Text`'s own modifiers (the node's `modifiers`).
    var style = Modifiers()
    /// The runs of a concatenation, in order (nil for a single text).
    var runs: [Text]?

    /// Text of a string literal in the user's language (the bundle's `Localizable` strings; the
    /// literal when there is no translation); an interpolated live date or styled `Text` stays a
    /// run of its own.
    public init(_ key: LocalizedStringKey) { self = key.localizedText() }
    /// `Text(key, tableName:comment:)`: the key looked up in `tableName` (`Widgets.strings`).
    public init(_ key: LocalizedStringKey, tableName: String?, comment: StaticString? = nil) { self = key.localizedText(table: tableName) }
    /// Text of a string value, verbatim.
    @_disfavoredOverload public init<S: StringProtocol>(_ content: S) { string = String(content) }
    /// Text shown exactly as given.
    public init(verbatim content: String) { string = content }
    /// The characters of an attributed string (its attributes are not carried yet).
    @_disfavoredOverload public init(_ attributedContent: AttributedString) { string = String(attributedContent.characters) }

    /// A value formatted by a style: `Text(x, format: .number.precision(.fractionLength(1)))`.
    /// A `.dateTime` style gives a live `time` or `date` node with its fields.
    public init<F: TextFormatStyle>(_ input: F.FormatInput, format: F) {
        if let dateStyle = format as? DateTimeFormatStyle, let d = input as? Date {
            date = DateText(style: dateStyle.liveStyle, date: d, fields: dateStyle.skeleton)
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

    /// The string (empty for a live date; the runs' strings for a concatenation).
    var plainText: String { runs.map { $0.map(\.plainText).joined() } ?? string ?? "" }

    func makeNodes() -> [ViewNode] { [node] }

    var node: ViewNode {
        var n = ViewNode(kind: .text)
        if let runs {
            n.children = runs.map { run in var r = run.node; r.role = "run"; return r }
        } else {
            n.text = string
            n.date = date
        }
        n.modifiers = style.isEmpty ? nil : style
        return n
    }

    /// Concatenation: the runs of both operands, each keeping its style and live date. Adjacent
    /// plain strings of one style merge (`Text("a") + Text("b")` is the text `"ab"`).
    public static func + (lhs: Text, rhs: Text) -> Text {
        var runs: [Text] = []
        for part in lhs.parts + rhs.parts {
            if let last = runs.last, last.date == nil, part.date == nil, last.style == part.style, let a = last.string, let b = part.string {
                runs[runs.count - 1].string = a + b
            } else {
                runs.append(part)
            }
        }
        if runs.count == 1 { return runs[0] }
        var t = Text(verbatim: "")
        t.string = nil
        t.runs = runs
        return t
    }

    /// This text as runs: its own runs (with its style applied under theirs), or itself.
    private var parts: [Text] {
        guard let runs else { return [self] }
        return runs.map { run in
            var r = run
            r.style = Self.merged(inner: run.style, outer: style)
            return r
        }
    }

    /// `inner`'s style fields, with `outer`'s where `inner` sets none (as modifiers inherit).
    static func merged(inner: Modifiers, outer: Modifiers) -> Modifiers {
        var m = inner
        if m.font == nil { m.font = outer.font }
        if m.weight == nil { m.weight = outer.weight }
        if m.italic == nil { m.italic = outer.italic }
        if m.monospacedDigit == nil { m.monospacedDigit = outer.monospacedDigit }
        if m.monospaced == nil { m.monospaced = outer.monospaced }
        if m.fontDesign == nil { m.fontDesign = outer.fontDesign }
        if m.foreground == nil { m.foreground = outer.foreground }
        if m.kerning == nil { m.kerning = outer.kerning }
        if m.tracking == nil { m.tracking = outer.tracking }
        if let o = outer.other { m.other = o.merging(m.other ?? [:]) { _, own in own } }
        return m
    }

    /// Sets a style field unless this text already set it (the innermost modifier wins).
    private func styled(_ change: (inout Modifiers) -> Void) -> Text {
        var t = self
        change(&t.style)
        return t
    }
}

/// Text-only modifiers: they return `Text`, so a styled text can be concatenated.
extension Text {
    public func font(_ font: Font?) -> Text {
        styled { m in
            guard let font, m.font == nil else { return }
            m.font = font.spec
            if font.monospacedDigits && m.monospacedDigit == nil { m.monospacedDigit = true }
        }
    }
    public func fontWeight(_ weight: Font.Weight?) -> Text { styled { m in if m.weight == nil { m.weight = weight?.name } } }
    public func bold(_ isActive: Bool = true) -> Text { styled { m in if isActive && m.weight == nil { m.weight = Font.Weight.bold.name } } }
    public func italic(_ isActive: Bool = true) -> Text { styled { m in if m.italic == nil { m.italic = isActive } } }
    public func monospacedDigit() -> Text { styled { m in if m.monospacedDigit == nil { m.monospacedDigit = true } } }
    public func monospaced(_ isActive: Bool = true) -> Text { styled { m in if m.monospaced == nil { m.monospaced = isActive } } }
    public func fontDesign(_ design: Font.Design?) -> Text { styled { m in if m.fontDesign == nil { m.fontDesign = design?.rawValue } } }
    public func foregroundColor(_ color: Color?) -> Text {
        let spec = color?._styleSpec
        return styled { m in if m.foreground == nil { m.foreground = spec } }
    }
    public func foregroundStyle<S: ShapeStyle>(_ style: S) -> Text {
        let spec = style._styleSpec
        return styled { m in if m.foreground == nil { m.foreground = spec } }
    }
    public func kerning(_ kerning: Double) -> Text { styled { m in if m.kerning == nil { m.kerning = kerning } } }
    public func tracking(_ tracking: Double) -> Text { styled { m in if m.tracking == nil { m.tracking = tracking } } }
    /// `other["underline"]` (drawn in pictures, solid, in the text's colour).
    public func underline(_ isActive: Bool = true, pattern: LineStyle.Pattern = .solid, color: Color? = nil) -> Text { other("underline", .bool(isActive)) }
    /// `other["strikethrough"]` (drawn in pictures, solid, in the text's colour).
    public func strikethrough(_ isActive: Bool = true, pattern: LineStyle.Pattern = .solid, color: Color? = nil) -> Text { other("strikethrough", .bool(isActive)) }
    /// `other["fontWidth"]`, as `View.fontWidth(_:)`.
    public func fontWidth(_ width: Font.Width?) -> Text { other("fontWidth", width.map { .string($0.name) } ?? .null) }
    /// `other["textScale"]`, as `View.textScale(_:isEnabled:)`.
    public func textScale(_ scale: Scale, isEnabled: Bool = true) -> Text { other("textScale", .string(isEnabled ? scale.name : Scale.default.name)) }
    /// `other["baselineOffset"]` (pixel renderers).
    public func baselineOffset(_ offset: Double) -> Text { other("baselineOffset", .number(offset)) }

    private func other(_ name: String, _ value: JSONValue) -> Text {
        styled { m in
            var o = m.other ?? [:]
            if o[name] == nil { o[name] = value }
            m.other = o
        }
    }
}
