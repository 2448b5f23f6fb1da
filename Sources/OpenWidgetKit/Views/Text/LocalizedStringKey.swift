/// The string of a `Text("…")` literal, with interpolation resolved at creation.
///
/// The SDK does not localise: the key is the text. Interpolated values render with
/// `description` (so `"\(7.5)"` gives `"7.5"`, not SwiftUI's `%lf` form), except that a
/// `Text` interpolates its plain text and `\(value, format: style)` uses the style (en_US).
public struct LocalizedStringKey: ExpressibleByStringInterpolation, Hashable, Sendable {
    public let key: String

    public init(_ value: String) { key = value }
    public init(stringLiteral value: String) { key = value }
    public init(stringInterpolation: StringInterpolation) { key = stringInterpolation.output }

    public struct StringInterpolation: StringInterpolationProtocol {
        var output = ""
        public init(literalCapacity: Int, interpolationCount: Int) { output.reserveCapacity(literalCapacity) }
        public mutating func appendLiteral(_ literal: String) { output += literal }
        public mutating func appendInterpolation(_ string: String) { output += string }
        public mutating func appendInterpolation<T>(_ value: T) {
            if let text = value as? Text { output += text.plainText } else { output += String(describing: value) }
        }
        public mutating func appendInterpolation<F: TextFormatStyle>(_ value: F.FormatInput, format: F) {
            output += format.format(value)
        }
        public mutating func appendInterpolation(_ text: Text) { output += text.plainText }
    }
}
