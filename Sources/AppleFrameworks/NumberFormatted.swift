// `n.formatted()`, `x.formatted(.number)`, `.percent`, `.number.precision(…)` in code that
// imports Apple's module names: Foundation and the SDK each declare these on `BinaryInteger` and
// `BinaryFloatingPoint`, and `.number` is a member of both formats' protocols, so Swift called
// every such line ambiguous. Declared here, in a module that imports both, the two forms below
// shadow theirs (as `CGFloat` does) and format as the SDK does — with the locale table that
// `Text(n, format: .number)` uses, so a number reads the same in a string and in a `Text`.
// Other formats (`.currency(code:)`, `Date.formatted(…)`) resolve as before.
//
// Threading: pure functions of their arguments and the process's locale; any thread.

extension BinaryInteger {
    /// `steps.formatted()`: the SDK's number format in the user's locale (`12,345` in en_US).
    public func formatted() -> String { formatted(IntegerNumberFormatStyle<Self>()) }

    /// `steps.formatted(.number)` and its refinements, by the SDK's format.
    public func formatted(_ style: IntegerNumberFormatStyle<Self>) -> String { style.format(self) }
}

extension BinaryFloatingPoint where Self: LosslessStringConvertible {
    /// `km.formatted()`: the SDK's number format in the user's locale.
    public func formatted() -> String { formatted(FloatingPointNumberFormatStyle<Self>()) }

    /// `x.formatted(.number.precision(.fractionLength(1)))`, `share.formatted(.percent)`, by the SDK's format.
    public func formatted(_ style: FloatingPointNumberFormatStyle<Self>) -> String { style.format(self) }
}
