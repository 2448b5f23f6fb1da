/// Modifiers that change nothing in a widget: it has no safe area, no keyboard, no animation
/// between its entries that the app controls, and assistive technologies read the tree as a
/// whole. iOS accepts them in widget code and draws nothing different; so does the SDK — they
/// leave the tree as it is, so ported code compiles and draws as on iOS. Pure.
extension View {
    /// Accepted; a widget has no safe area to ignore.
    public func ignoresSafeArea(_ regions: SafeAreaRegions = .all, edges: Edge.Set = .all) -> ModifiedContent<Self, _NodeModifier> {
        _NodeModifier { $0 }.apply(to: self)
    }

    /// Accepted (deprecated on iOS too); a widget has no safe area to ignore.
    public func edgesIgnoringSafeArea(_ edges: Edge.Set) -> ModifiedContent<Self, _NodeModifier> {
        _NodeModifier { $0 }.apply(to: self)
    }

    /// Accepted; a widget's view is a still, the system animates between entries itself.
    public func transition(_ transition: AnyTransition) -> ModifiedContent<Self, _NodeModifier> {
        _NodeModifier { $0 }.apply(to: self)
    }

    /// How assistive technologies group children; it does not change the picture. `.ignore`
    /// (the default) is kept in the tree (`other["accessibilityElement"] = "ignore"`): with an
    /// `accessibilityLabel`, the text outputs read the element as that label alone, as a screen
    /// reader does (an analog clock face reads "Paris, 11:09", not its numerals). The other
    /// behaviours are accepted and change nothing.
    public func accessibilityElement(children: AccessibilityChildBehavior = .ignore) -> ModifiedContent<Self, _NodeModifier> {
        children == .ignore ? _NodeModifier.other("accessibilityElement", .string(children.name)).apply(to: self) : _NodeModifier { $0 }.apply(to: self)
    }

    /// Accepted; the text is drawn with the font's own spacing (tightening only matters where
    /// a line would otherwise be cut, by less than a glyph's width).
    public func allowsTightening(_ flag: Bool) -> ModifiedContent<Self, _NodeModifier> {
        _NodeModifier { $0 }.apply(to: self)
    }
}

/// The regions `ignoresSafeArea` names.
public struct SafeAreaRegions: OptionSet, Hashable, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public static let container = SafeAreaRegions(rawValue: 1)
    public static let keyboard = SafeAreaRegions(rawValue: 2)
    public static let all: SafeAreaRegions = [.container, .keyboard]
}

/// A view's insertion and removal transition: accepted, never run (a widget is a still).
public struct AnyTransition: Hashable, Sendable {
    let name: String
    public static let identity = AnyTransition(name: "identity")
    public static let opacity = AnyTransition(name: "opacity")
    public static let scale = AnyTransition(name: "scale")
    public static let slide = AnyTransition(name: "slide")
    public static func scale(scale: Double, anchor: UnitPoint = .center) -> AnyTransition { .scale }
    public static func move(edge: Edge) -> AnyTransition { AnyTransition(name: "move") }
    public static func push(from edge: Edge) -> AnyTransition { AnyTransition(name: "push") }
    public static func offset(x: Double = 0, y: Double = 0) -> AnyTransition { AnyTransition(name: "offset") }
    public static func asymmetric(insertion: AnyTransition, removal: AnyTransition) -> AnyTransition { insertion }
    public func combined(with other: AnyTransition) -> AnyTransition { self }
    public func animation(_ animation: Animation?) -> AnyTransition { self }
}

/// How `accessibilityElement(children:)` groups children.
public struct AccessibilityChildBehavior: Hashable, Sendable {
    let name: String
    public static let ignore = AccessibilityChildBehavior(name: "ignore")
    public static let contain = AccessibilityChildBehavior(name: "contain")
    public static let combine = AccessibilityChildBehavior(name: "combine")
}
