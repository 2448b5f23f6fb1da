/// A formatter for `Text(value, format:)` and string interpolation, standing in for
/// Foundation's `FormatStyle` (whose number styles need ICU, which the SDK does not link).
///
/// The number styles format for the process's locale (`LC_ALL`/`LC_NUMERIC`/`LANG`, see
/// `LocaleFormats`; `10,432` in en_US, `10.432` in de_DE), or the one `.locale(_:)` names.
/// `Text(x, format: .number)`, `.number.precision(.fractionLength(1))`, `.percent` and `.dateTime…` resolve to the SDK's styles through this protocol.
public protocol TextFormatStyle {
    associatedtype FormatInput
    /// The formatted text.
    func format(_ value: FormatInput) -> String
}
