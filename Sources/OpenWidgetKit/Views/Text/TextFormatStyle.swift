/// A formatter for `Text(value, format:)` and string interpolation, standing in for
/// Foundation's `FormatStyle` (whose number styles need ICU, which the SDK does not link).
///
/// Every style of the SDK formats for the **en_US** locale: `,` groups thousands, `.` is the
/// decimal separator. `Text(x, format: .number)`, `.number.precision(.fractionLength(1))`,
/// `.percent` and `.dateTime…` resolve to the SDK's styles through this protocol.
public protocol TextFormatStyle {
    associatedtype FormatInput
    /// The formatted text, en_US.
    func format(_ value: FormatInput) -> String
}
