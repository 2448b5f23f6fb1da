import OpenWidgetKit

/// The tint of the accented rendering mode (iOS 18's tinted Home Screen) as a user writes it —
/// `preview --tint COLOR`, `picture.tint` in `config.json`: a system colour name (`orange`,
/// `blue`…, light appearance values) or `#RGB` / `#RRGGBB`. Pure; any thread.
public enum AccentTint {
    /// The system colour names accepted.
    public static let names = ["red", "orange", "yellow", "green", "mint", "teal", "cyan", "blue", "indigo", "purple",
                               "pink", "brown", "gray", "white"]

    /// The tint when none is given.
    public static let fallback = "blue"

    /// The style of `text` (a named colour or an explicit one); nil when it is neither.
    public static func style(_ text: String) -> StyleSpec? {
        let t = text.lowercased()
        if names.contains(t) { return StyleSpec(name: t) }
        guard t.hasPrefix("#") else { return nil }
        let digits = Array(t.dropFirst())
        guard digits.count == 3 || digits.count == 6, digits.allSatisfy(\.isHexDigit) else { return nil }
        let full = digits.count == 3 ? digits.flatMap { [$0, $0] } : digits
        let values = stride(from: 0, to: 6, by: 2).map { Double(Int(String(full[$0..<($0 + 2)]), radix: 16) ?? 0) / 255 }
        return StyleSpec(rgba: values + [1])
    }

    /// What a bad tint is told: the forms accepted.
    public static let expected = "a colour name (\(names.joined(separator: ", "))) or #RRGGBB"
}
