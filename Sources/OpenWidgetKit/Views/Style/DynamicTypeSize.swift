/// Dynamic Type sizes, as SwiftUI names them (`@Environment(\.dynamicTypeSize)`,
/// `.dynamicTypeSize(...)`). A widget here is evaluated and drawn at the default, `.large`
/// (Apple's text-style sizes at Large, docs/widgetkit-parity.md); `.dynamicTypeSize(_:)` sets
/// the environment a view reads. Values; safe from any thread.
public enum DynamicTypeSize: Int, Hashable, Comparable, CaseIterable, Sendable {
    case xSmall, small, medium, large, xLarge, xxLarge, xxxLarge
    case accessibility1, accessibility2, accessibility3, accessibility4, accessibility5

    public var isAccessibilitySize: Bool { self >= .accessibility1 }
    public static func < (a: DynamicTypeSize, b: DynamicTypeSize) -> Bool { a.rawValue < b.rawValue }
}

/// The older name of the same sizes (`@Environment(\.sizeCategory)`).
public enum ContentSizeCategory: Int, Hashable, Comparable, CaseIterable, Sendable {
    case extraSmall, small, medium, large, extraLarge, extraExtraLarge, extraExtraExtraLarge
    case accessibilityMedium, accessibilityLarge, accessibilityExtraLarge, accessibilityExtraExtraLarge, accessibilityExtraExtraExtraLarge

    public var isAccessibilityCategory: Bool { self >= .accessibilityMedium }
    public static func < (a: ContentSizeCategory, b: ContentSizeCategory) -> Bool { a.rawValue < b.rawValue }
}

extension EnvironmentValues {
    /// `\.sizeCategory`: `dynamicTypeSize` under its older name (the two enums list the same sizes).
    public var sizeCategory: ContentSizeCategory {
        get { ContentSizeCategory(rawValue: dynamicTypeSize.rawValue) ?? .large }
        set { dynamicTypeSize = DynamicTypeSize(rawValue: newValue.rawValue) ?? .large }
    }
}

extension View {
    /// The Dynamic Type size this subtree is evaluated with (`\.dynamicTypeSize`).
    public func dynamicTypeSize(_ size: DynamicTypeSize) -> ModifiedContent<Self, _NodeModifier> {
        _NodeModifier(environment: { $0.dynamicTypeSize = size }, transform: { $0 }).apply(to: self)
    }

    /// Limits the Dynamic Type size of this subtree to `range` (`...DynamicTypeSize.xxLarge`):
    /// the environment's size, clamped into it.
    public func dynamicTypeSize<T: RangeExpression>(_ range: T) -> ModifiedContent<Self, _NodeModifier> where T.Bound == DynamicTypeSize {
        _NodeModifier(environment: { env in
            let all = DynamicTypeSize.allCases
            let allowed = all.filter { range.contains($0) }
            guard let low = allowed.first, let high = allowed.last else { return }
            env.dynamicTypeSize = min(max(env.dynamicTypeSize, low), high)
        }, transform: { $0 }).apply(to: self)
    }
}
