/// How many digits a number style shows (`.precision(.fractionLength(1))`).
public struct NumberPrecision: Hashable, Sendable {
    enum Kind: Hashable, Sendable {
        case fraction(min: Int, max: Int)
        case significant(min: Int, max: Int)
        case integerAndFraction(minInteger: Int, minFraction: Int, maxFraction: Int)
    }
    let kind: Kind

    /// Exactly `length` fraction digits.
    public static func fractionLength(_ length: Int) -> NumberPrecision {
        NumberPrecision(kind: .fraction(min: max(0, length), max: max(0, length)))
    }
    /// Between `limits.lowerBound` and `limits.upperBound` fraction digits.
    public static func fractionLength(_ limits: ClosedRange<Int>) -> NumberPrecision {
        NumberPrecision(kind: .fraction(min: max(0, limits.lowerBound), max: max(0, limits.upperBound)))
    }
    /// Exactly `count` significant digits.
    public static func significantDigits(_ count: Int) -> NumberPrecision {
        NumberPrecision(kind: .significant(min: max(1, count), max: max(1, count)))
    }
    public static func significantDigits(_ limits: ClosedRange<Int>) -> NumberPrecision {
        NumberPrecision(kind: .significant(min: max(1, limits.lowerBound), max: max(1, limits.upperBound)))
    }
    /// At least `integerLength` integer digits (zero padded) and exactly `fractionLength` fraction digits.
    public static func integerAndFractionLength(integer: Int, fraction: Int) -> NumberPrecision {
        NumberPrecision(kind: .integerAndFraction(minInteger: max(0, integer), minFraction: max(0, fraction), maxFraction: max(0, fraction)))
    }
    public static func integerLength(_ length: Int) -> NumberPrecision {
        NumberPrecision(kind: .integerAndFraction(minInteger: max(0, length), minFraction: 0, maxFraction: 6))
    }
}

/// Whether thousands are grouped.
public struct NumberGrouping: Hashable, Sendable {
    let enabled: Bool
    public static let automatic = NumberGrouping(enabled: true)
    public static let never = NumberGrouping(enabled: false)
}

/// Notation of a number style.
public struct NumberNotation: Hashable, Sendable {
    let compact: Bool
    public static let automatic = NumberNotation(compact: false)
    /// `12,300` → `12K`, `1,500,000` → `1.5M` (en_US short names).
    public static let compactName = NumberNotation(compact: true)
}

/// The shared configuration and the formatting algorithm of the number styles (separators from
/// `LocaleFormats`).
public struct NumberFormatConfiguration: Hashable, Sendable {
    var precision: NumberPrecision?
    var grouping = NumberGrouping.automatic
    var notation = NumberNotation.automatic
    var sign = false
    /// The separators' locale; nil = this process's (`LocaleFormats.currentNumeric`).
    var locale: LocaleFormats?
    var formats: LocaleFormats { locale ?? .currentNumeric }

    /// Formats a decimal. Rounding is half-to-even on the shortest decimal representation of
    /// the value (as ICU does). Without a precision: at most 6 fraction digits, trailing zeros
    /// dropped. A value that rounds to zero prints without a minus sign.
    func format(_ input: Decimal10, isPercent: Bool) -> String {
        var d = input
        if isPercent { d.exponent += 2 }
        var suffix = ""
        if notation.compact {
            let steps: [(Int, String)] = [(13, "T"), (10, "B"), (7, "M"), (4, "K")]
            if let (minDigits, name) = steps.first(where: { d.integerDigitCount >= $0.0 }) {
                d.exponent -= minDigits - 1
                suffix = name
            }
            if precision == nil {
                // ICU's short compact form: 2 significant digits below 100 ("1.2K", "12K", "123K").
                d.round(significant: max(2, d.integerDigitCount), minFraction: 0)
                return finish(d, suffix: suffix, isPercent: isPercent)
            }
        }
        switch precision?.kind {
        case .fraction(let minF, let maxF)?:
            d.round(fractionDigits: maxF, minFraction: minF)
        case .significant(let minS, let maxS)?:
            d.round(significant: maxS, minFraction: 0, minSignificant: minS)
        case .integerAndFraction(let minI, let minF, let maxF)?:
            d.round(fractionDigits: maxF, minFraction: minF)
            d.minIntegerDigits = minI
        case nil:
            d.round(fractionDigits: 6, minFraction: 0)
        }
        return finish(d, suffix: suffix, isPercent: isPercent)
    }

    /// `rendered` (written with `,` groups and a `.` decimal point) with `f`'s separators.
    static func localized(_ rendered: String, _ f: LocaleFormats) -> String {
        if f.groupingSeparator == "," && f.decimalSeparator == "." { return rendered }
        var out = ""
        for c in rendered {
            switch c {
            case ",": out += f.groupingSeparator
            case ".": out += f.decimalSeparator
            default: out.append(c)
            }
        }
        return out
    }

    private func finish(_ d: Decimal10, suffix: String, isPercent: Bool) -> String {
        var s = Self.localized(d.render(grouping: grouping.enabled), formats) + suffix
        if isPercent { s += formats.percentSpace + "%" }
        if d.negative && !d.isZero { s = "-" + s } else if sign { s = "+" + s }
        return s
    }
}

/// A non-negative decimal digit string with sign and exponent: value = 0.d1d2d3… × 10^exponent.
struct Decimal10: Hashable, Sendable {
    var negative = false
    /// Significant digits, no leading zeros (empty for zero).
    var digits: [UInt8] = []
    /// Position of the decimal point relative to the first digit.
    var exponent = 0
    /// Fraction digits to show even when zero.
    var minFraction = 0
    var minIntegerDigits = 1

    var isZero: Bool { digits.allSatisfy { $0 == 0 } }
    var integerDigitCount: Int { isZero ? 1 : max(1, exponent) }

    init<I: BinaryInteger>(integer: I) {
        negative = integer < 0
        let mag = integer.magnitude
        digits = String(mag).utf8.map { $0 - 48 }
        exponent = digits.count
        normalize()
    }

    /// From the shortest round-trip representation of `value` (finite values only).
    init<F: BinaryFloatingPoint & LosslessStringConvertible>(floating value: F) {
        negative = value < 0
        let text = String(value.magnitude)
        var mantissa = Substring(text)
        var exp = 0
        if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            mantissa = text[..<e]
            exp = Int(text[text.index(after: e)...]) ?? 0
        }
        var intPart = mantissa, fracPart = Substring("")
        if let dot = mantissa.firstIndex(of: ".") {
            intPart = mantissa[..<dot]
            fracPart = mantissa[mantissa.index(after: dot)...]
        }
        digits = (intPart + fracPart).utf8.map { $0 - 48 }
        exponent = intPart.count + exp
        normalize()
    }

    mutating func normalize() {
        while let f = digits.first, f == 0 { digits.removeFirst(); exponent -= 1 }
        while let l = digits.last, l == 0 { digits.removeLast() }
        if digits.isEmpty { exponent = 0 }
    }

    /// Rounds half-to-even to `fractionDigits` fraction digits.
    mutating func round(fractionDigits: Int, minFraction: Int) {
        roundAt(keep: exponent + fractionDigits)
        self.minFraction = min(minFraction, fractionDigits)
    }

    /// Rounds half-to-even to `significant` significant digits.
    mutating func round(significant: Int, minFraction: Int, minSignificant: Int = 1) {
        roundAt(keep: significant)
        // Show trailing zeros up to minSignificant digits.
        self.minFraction = max(minFraction, minSignificant - exponent)
    }

    /// Keeps the first `keep` digits (may be ≤ 0), rounding half-to-even.
    private mutating func roundAt(keep: Int) {
        guard keep < digits.count else { return }
        if keep < 0 { digits = []; normalize(); return }
        let rest = Array(digits[keep...])
        digits = Array(digits[..<keep])
        let first = rest[0]
        let beyond = rest.dropFirst().contains { $0 != 0 }
        let lastKept = digits.last ?? 0
        let roundUp = first > 5 || (first == 5 && (beyond || lastKept % 2 == 1))
        if roundUp {
            var i = digits.count - 1
            while i >= 0 {
                if digits[i] == 9 { digits[i] = 0; i -= 1 } else { digits[i] += 1; break }
            }
            if i < 0 { digits.insert(1, at: 0); exponent += 1 }
        }
        normalize()
    }

    func render(grouping: Bool) -> String {
        var intDigits: [UInt8] = []
        var fracDigits: [UInt8] = []
        if exponent > 0 {
            intDigits = Array(digits.prefix(exponent))
            if intDigits.count < exponent { intDigits += Array(repeating: 0, count: exponent - intDigits.count) }
            fracDigits = Array(digits.dropFirst(exponent))
        } else {
            fracDigits = Array(repeating: 0, count: -exponent) + digits
        }
        while intDigits.count < minIntegerDigits { intDigits.insert(0, at: 0) }
        while fracDigits.count < minFraction { fracDigits.append(0) }
        var out = ""
        for (i, d) in intDigits.enumerated() {
            if grouping && i > 0 && (intDigits.count - i) % 3 == 0 { out += "," }
            out.append(Character(Unicode.Scalar(d + 48)))
        }
        if !fracDigits.isEmpty {
            out += "."
            for d in fracDigits { out.append(Character(Unicode.Scalar(d + 48))) }
        }
        return out
    }
}

/// `.number` for integers: `10432` → `"10,432"` (en_US).
public struct IntegerNumberFormatStyle<Value: BinaryInteger>: TextFormatStyle, Hashable, Sendable {
    var configuration = NumberFormatConfiguration()
    var isPercent = false
    public init() {}
    public func format(_ value: Value) -> String {
        configuration.format(Decimal10(integer: value), isPercent: false) + (isPercent ? configuration.formats.percentSpace + "%" : "")
    }
    public func precision(_ p: NumberPrecision) -> Self { var s = self; s.configuration.precision = p; return s }
    public func grouping(_ g: NumberGrouping) -> Self { var s = self; s.configuration.grouping = g; return s }
    public func notation(_ n: NumberNotation) -> Self { var s = self; s.configuration.notation = n; return s }
    /// Formats for `locale` (`Locale(identifier: "de_DE")`) instead of the process's.
    public func locale(_ locale: Locale) -> Self { var s = self; s.configuration.locale = .named(locale.identifier); return s }
    /// A percent style for integers shows the value itself followed by `%` (`25` → `"25%"`).
    public var percent: Self { var s = self; s.isPercent = true; return s }
}

/// `.number` for floating point: `7.25` → `"7.25"`, `10432.0` → `"10,432"`; `.percent`:
/// `0.256` → `"25.6%"` (en_US).
public struct FloatingPointNumberFormatStyle<Value: BinaryFloatingPoint & LosslessStringConvertible>: TextFormatStyle, Hashable, Sendable {
    var configuration = NumberFormatConfiguration()
    var isPercent = false
    public init() {}
    public func format(_ value: Value) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value < 0 ? "-∞" : "∞" }
        return configuration.format(Decimal10(floating: value), isPercent: isPercent)
    }
    public func precision(_ p: NumberPrecision) -> Self { var s = self; s.configuration.precision = p; return s }
    public func grouping(_ g: NumberGrouping) -> Self { var s = self; s.configuration.grouping = g; return s }
    public func notation(_ n: NumberNotation) -> Self { var s = self; s.configuration.notation = n; return s }
    /// Formats for `locale` (`Locale(identifier: "de_DE")`) instead of the process's.
    public func locale(_ locale: Locale) -> Self { var s = self; s.configuration.locale = .named(locale.identifier); return s }
}

extension TextFormatStyle where Self == IntegerNumberFormatStyle<Int> {
    public static var number: IntegerNumberFormatStyle<Int> { .init() }
    public static var percent: IntegerNumberFormatStyle<Int> { IntegerNumberFormatStyle<Int>().percent }
}

extension TextFormatStyle where Self == IntegerNumberFormatStyle<Int64> {
    public static var number: IntegerNumberFormatStyle<Int64> { .init() }
}

extension TextFormatStyle where Self == IntegerNumberFormatStyle<Int32> {
    public static var number: IntegerNumberFormatStyle<Int32> { .init() }
}

extension TextFormatStyle where Self == IntegerNumberFormatStyle<UInt> {
    public static var number: IntegerNumberFormatStyle<UInt> { .init() }
}

extension TextFormatStyle where Self == FloatingPointNumberFormatStyle<Double> {
    public static var number: FloatingPointNumberFormatStyle<Double> { .init() }
    public static var percent: FloatingPointNumberFormatStyle<Double> {
        var s = FloatingPointNumberFormatStyle<Double>(); s.isPercent = true; return s
    }
}

extension TextFormatStyle where Self == FloatingPointNumberFormatStyle<Float> {
    public static var number: FloatingPointNumberFormatStyle<Float> { .init() }
    public static var percent: FloatingPointNumberFormatStyle<Float> {
        var s = FloatingPointNumberFormatStyle<Float>(); s.isPercent = true; return s
    }
}

extension BinaryInteger {
    /// `n.formatted()` / `n.formatted(.number)`, in the process's locale.
    public func formatted() -> String { IntegerNumberFormatStyle<Self>().format(self) }
}

extension BinaryFloatingPoint where Self: LosslessStringConvertible {
    /// `x.formatted()`, in the process's locale.
    public func formatted() -> String { FloatingPointNumberFormatStyle<Self>().format(self) }
}

extension BinaryInteger {
    public func formatted<F: TextFormatStyle>(_ style: F) -> String where F.FormatInput == Self { style.format(self) }
}

extension BinaryFloatingPoint {
    public func formatted<F: TextFormatStyle>(_ style: F) -> String where F.FormatInput == Self { style.format(self) }
}

/// `.currency(code:)`: `1234.5` → `"$1,234.50"`, `-5` → `"-$5.00"` (en_US); the currency's
/// own fraction digits (2; 0 for JPY and KRW); symbols for the common codes, else the code
/// and a space (`"CHF 12.00"`).
public struct CurrencyFormatStyle<Value>: TextFormatStyle, Hashable, Sendable {
    public let code: String
    var configuration = NumberFormatConfiguration()
    public init(code: String) { self.code = code.uppercased() }

    static func symbol(_ code: String) -> String {
        switch code {
        case "USD": "$"
        case "EUR": "€"
        case "GBP": "£"
        case "JPY": "¥"
        case "CNY": "CN¥"
        case "KRW": "₩"
        case "INR": "₹"
        case "CAD": "CA$"
        case "AUD": "A$"
        case "BRL": "R$"
        default: code + "\u{A0}"
        }
    }

    public func format(_ value: Value) -> String {
        let decimal: Decimal10
        switch value {
        case let v as Double: decimal = v.isFinite ? Decimal10(floating: v) : Decimal10(integer: 0)
        case let v as Float: decimal = v.isFinite ? Decimal10(floating: v) : Decimal10(integer: 0)
        case let v as Int: decimal = Decimal10(integer: v)
        case let v as Decimal: decimal = Decimal10(floating: Double("\(v)") ?? 0)
        default: decimal = Decimal10(floating: Double("\(value)") ?? 0)
        }
        var c = configuration
        let digits = ["JPY", "KRW"].contains(code) ? 0 : 2
        if c.precision == nil { c.precision = .fractionLength(digits) }
        let number = c.format(decimal, isPercent: false)
        if c.formats.currencyAfter {
            // `1.234,50 €`: the symbol after the number, a no-break space between.
            let symbol = Self.symbol(code).trimmingSpace
            return number + "\u{A0}" + symbol
        }
        let negative = number.hasPrefix("-")
        return (negative ? "-" : "") + Self.symbol(code) + (negative ? String(number.dropFirst()) : number)
    }

    /// Formats for `locale` (`Locale(identifier: "de_DE")`) instead of the process's.
    public func locale(_ locale: Locale) -> Self { var s = self; s.configuration.locale = .named(locale.identifier); return s }

    public func precision(_ p: NumberPrecision) -> Self { var s = self; s.configuration.precision = p; return s }
    public func grouping(_ g: NumberGrouping) -> Self { var s = self; s.configuration.grouping = g; return s }
}

extension TextFormatStyle where Self == CurrencyFormatStyle<Double> {
    public static func currency(code: String) -> CurrencyFormatStyle<Double> { .init(code: code) }
}

extension TextFormatStyle where Self == CurrencyFormatStyle<Int> {
    public static func currency(code: String) -> CurrencyFormatStyle<Int> { .init(code: code) }
}

extension TextFormatStyle where Self == CurrencyFormatStyle<Decimal> {
    public static func currency(code: String) -> CurrencyFormatStyle<Decimal> { .init(code: code) }
}

private extension String {
    /// Without a trailing no-break space (the prefix form of a code: `"CHF\u{A0}"`).
    var trimmingSpace: String { hasSuffix("\u{A0}") ? String(dropLast()) : self }
}
