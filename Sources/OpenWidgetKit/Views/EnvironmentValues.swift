import FoundationEssentials

/// Why a view is redacted.
public struct RedactionReasons: OptionSet, Hashable, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    /// The view is a placeholder (`TimelineProvider.placeholder(in:)`).
    public static let placeholder = RedactionReasons(rawValue: 1 << 0)
    public static let privacy = RedactionReasons(rawValue: 1 << 1)
    public static let invalidated = RedactionReasons(rawValue: 1 << 2)
}

/// Light or dark appearance (`@Environment(\.colorScheme)`). The SDK evaluates in `.light`
/// unless the request says otherwise (`WireRequest.colorScheme`: `preview --dark`, the daemon's
/// `picture.colorScheme`).
public enum ColorScheme: String, Codable, Hashable, Sendable, CaseIterable {
    case light, dark
}

/// How the system renders a widget (`@Environment(\.widgetRenderingMode)`).
public struct WidgetRenderingMode: Hashable, Sendable, CustomStringConvertible {
    public let description: String
    public static let fullColor = WidgetRenderingMode(description: "fullColor")
    public static let accented = WidgetRenderingMode(description: "accented")
    public static let vibrant = WidgetRenderingMode(description: "vibrant")
}

extension WidgetRenderingMode {
    /// The mode a request names (`WireRequest.renderingMode`); nil for an unknown name.
    public init?(wireName: String) {
        guard let m = [WidgetRenderingMode.fullColor, .accented, .vibrant].first(where: { $0.description == wireName }) else { return nil }
        self = m
    }
}

/// A key for a custom environment value, as in SwiftUI: declare a type with a `defaultValue`
/// and a computed property on `EnvironmentValues` using `self[MyKey.self]`.
public protocol EnvironmentKey {
    associatedtype Value
    static var defaultValue: Value { get }
}

/// The values `@Environment` reads during an evaluation. Set by the SDK per request
/// (family, display size, preview flag, redaction) and changed for a subtree by `.environment`.
public struct EnvironmentValues: @unchecked Sendable {
    // @unchecked: `custom` holds values of custom keys, which the author sets and reads on the
    // evaluating thread only; the built-in values are all Sendable.
    public var widgetFamily: WidgetFamily = .systemSmall
    public var redactionReasons: RedactionReasons = []
    public var showsWidgetContainerBackground: Bool = true
    public var displaySize: DisplaySize = WidgetFamily.systemSmall.nominalSize
    public var isPreview: Bool = false
    /// The family's default content margins (`@Environment(\.widgetContentMargins)`), also
    /// after `.contentMarginsDisabled()`, so content can add them back with `.padding(margins)`.
    public var widgetContentMargins = EdgeInsets(WidgetFamily.systemSmall.defaultContentMargins)
    public var colorScheme: ColorScheme = .light
    public var widgetRenderingMode: WidgetRenderingMode = .fullColor
    public var isLuminanceReduced: Bool = false
    /// Right to left in a right-to-left locale (`LayoutDirection.process`), else left to right;
    /// `.environment(\.layoutDirection, …)` changes it for a subtree, which the layout mirrors.
    public var layoutDirection: LayoutDirection = .process
    /// Always `.large` unless a view sets it (`.dynamicTypeSize(_:)`): widgets are drawn at Large.
    public var dynamicTypeSize: DynamicTypeSize = .large
    /// Whether the system shows the widget's `widgetLabel` (`\.showsWidgetLabel`): true for
    /// the accessory families, where the text output shows it (pictures, like iPhone's Lock
    /// Screen, leave it out).
    public var showsWidgetLabel: Bool { widgetFamily.isAccessory }
    private var custom: [ObjectIdentifier: Any] = [:]
    /// The area a `GeometryReader` filling the widget gets (the runner sets it per request:
    /// the display size less the margins in force); nil: the display size less the default margins.
    var geometryArea: GeometryArea?

    public init() {}

    /// A custom value (`EnvironmentKey`); its `defaultValue` when not set.
    public subscript<K: EnvironmentKey>(key: K.Type) -> K.Value {
        get { (custom[ObjectIdentifier(key)] as? K.Value) ?? K.defaultValue }
        set { custom[ObjectIdentifier(key)] = newValue }
    }

    /// The environment of the evaluation running on this task/thread. Outside an evaluation it
    /// holds the defaults.
    @TaskLocal static var current = EnvironmentValues()
}

/// `@Environment(\.widgetFamily) var family`: reads a value of the environment in force where
/// the view is evaluated (reading it outside an evaluation gives the default values).
@propertyWrapper
public struct Environment<Value> {
    private let keyPath: KeyPath<EnvironmentValues, Value>
    public init(_ keyPath: KeyPath<EnvironmentValues, Value>) { self.keyPath = keyPath }
    public var wrappedValue: Value { EnvironmentValues.current[keyPath: keyPath] }
}
