import FoundationEssentials

/// The numbers a timeline may carry across the boundary, checked once when it is decoded
/// (`WireCodec.decodeResponse`) and again when a saved timeline is read back.
///
/// The wire spells non-finite doubles as the strings `"nan"`, `"inf"`, `"-inf"` (so that
/// `.frame(maxWidth: .infinity)` can cross it), which means any plugin can send a date of
/// `"nan"` or a gauge value of `"-inf"`; a date that far out traps the first `Int` or `time_t`
/// conversion downstream (issue 15). So every number is held to a range here and a timeline
/// with one outside it is refused whole, with the path of the first bad value:
///
/// - dates (entry, policy, live dates): finite, within ±`maxDateMagnitude` seconds of 1970
///   (year −1200 to 5100: `Date.distantPast`/`distantFuture` fit);
/// - relevance: a finite score, a duration from 0 to `maxDateMagnitude`;
/// - sizes (frame, padding, spacing, font size, corner radius, line width): finite within
///   ±`maxSize`, except `maxWidth`/`maxHeight`, which may also be `+inf`;
/// - other numbers (gauge value and bounds, opacity, rotation, colour components, trims,
///   scale factor, layout priority): finite within ±`maxMagnitude`.
///
/// Pure; safe from any thread.
public enum WireValidation {
    public static let maxDateMagnitude: Double = 1e11
    public static let maxSize: Double = 1e9
    public static let maxMagnitude: Double = 1e100

    /// What is wrong with the numbers of `response` (its entries and policy), or nil.
    public static func problem(in response: WireResponse) -> String? {
        if let p = response.policy?.date, let bad = date(p) { return "policy date \(bad)" }
        return problem(in: response.entries ?? [])
    }

    /// What is wrong with the numbers of `entries`, or nil.
    public static func problem(in entries: [WireEntry]) -> String? {
        for (i, e) in entries.enumerated() {
            if let bad = problem(in: e, at: i) { return bad }
        }
        return nil
    }

    /// What is wrong with the numbers of entry `e`, the `i`th of its timeline, or nil.
    public static func problem(in e: WireEntry, at i: Int) -> String? {
        if let bad = date(e.date) { return "entry \(i): date \(bad)" }
        if let r = e.relevance {
            if let bad = number(r.score, max: maxMagnitude) { return "entry \(i): relevance score \(bad)" }
            if let bad = number(r.duration, min: 0, max: maxDateMagnitude) { return "entry \(i): relevance duration \(bad)" }
        }
        if let bad = node(e.view) { return "entry \(i): view \(bad)" }
        return nil
    }

    /// `nil` when `d` is a usable date, else what is wrong with it.
    public static func date(_ d: Date) -> String? {
        number(d.timeIntervalSince1970, max: maxDateMagnitude).map { "\($0) (seconds since 1970)" }
    }

    private static func number(_ v: Double, min lo: Double? = nil, max: Double, allowInfinity: Bool = false) -> String? {
        if v.isNaN { return "is nan" }
        if v == .infinity && allowInfinity { return nil }
        if !v.isFinite { return "is \(v < 0 ? "-inf" : "inf")" }
        if v < (lo ?? -max) || v > max { return "\(v) is out of range \(lo ?? -max)…\(max)" }
        return nil
    }

    private static func node(_ n: ViewNode) -> String? {
        var path = n.kind.rawValue
        if let bad = own(n) { return "\(path): \(bad)" }
        for (i, c) in (n.children ?? []).enumerated() {
            if let bad = node(c) { path += "[\(i)] > "; return path + bad }
        }
        return nil
    }

    /// The first bad number of `n` itself (not its children).
    private static func own(_ n: ViewNode) -> String? {
        func check(_ name: String, _ v: Double?, max: Double = maxMagnitude, min: Double? = nil, inf: Bool = false) -> String? {
            guard let v else { return nil }
            return number(v, min: min, max: max, allowInfinity: inf).map { "\(name) \($0)" }
        }
        func style(_ name: String, _ s: StyleSpec?) -> String? {
            guard let s else { return nil }
            for (i, c) in (s.rgba ?? []).enumerated() { if let bad = check("\(name).rgba[\(i)]", c) { return bad } }
            return check("\(name).opacity", s.opacity)
        }
        if let d = n.date {
            for (name, v) in [("date", d.date), ("start", d.start), ("end", d.end)] {
                if let v, let bad = date(v) { return "live date \(name) \(bad)" }
            }
        }
        if let bad = check("spacing", n.spacing, max: maxSize) ?? check("value", n.value) { return bad }
        for (i, b) in (n.bounds ?? []).enumerated() { if let bad = check("bounds[\(i)]", b) { return bad } }
        if let s = n.shape {
            if let bad = check("cornerRadius", s.cornerRadius, max: maxSize) ?? check("lineWidth", s.lineWidth, max: maxSize)
                ?? check("trimFrom", s.trimFrom) ?? check("trimTo", s.trimTo)
                ?? style("fill", s.fill) ?? style("stroke", s.stroke) { return bad }
        }
        guard let m = n.modifiers else { return nil }
        if let f = m.frame {
            if let bad = check("frame.width", f.width, max: maxSize) ?? check("frame.height", f.height, max: maxSize)
                ?? check("frame.minWidth", f.minWidth, max: maxSize) ?? check("frame.minHeight", f.minHeight, max: maxSize)
                ?? check("frame.maxWidth", f.maxWidth, max: maxSize, inf: true)
                ?? check("frame.maxHeight", f.maxHeight, max: maxSize, inf: true) { return bad }
        }
        if let p = m.padding {
            if let bad = check("padding.top", p.top, max: maxSize) ?? check("padding.leading", p.leading, max: maxSize)
                ?? check("padding.bottom", p.bottom, max: maxSize) ?? check("padding.trailing", p.trailing, max: maxSize) { return bad }
        }
        return check("font.size", m.font?.size, max: maxSize) ?? check("minimumScaleFactor", m.minimumScaleFactor)
            ?? check("opacity", m.opacity) ?? check("rotation", m.rotation) ?? check("layoutPriority", m.layoutPriority)
            ?? style("foreground", m.foreground) ?? style("tint", m.tint) ?? style("background", m.background)
            ?? style("containerBackground", m.containerBackground)
    }
}

/// A decoded answer whose numbers are out of range (`WireValidation`).
public struct WireValidationError: Error, CustomStringConvertible, Sendable {
    public var problem: String
    public init(_ problem: String) { self.problem = problem }
    public var description: String { "invalid number in the answer: \(problem)" }
}
