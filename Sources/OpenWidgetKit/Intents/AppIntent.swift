import FoundationEssentials

/// A localizable string as AppIntents names it. The SDK does not localise yet: it carries the key.
public struct LocalizedStringResource: ExpressibleByStringLiteral, ExpressibleByStringInterpolation,
    Hashable, Sendable, CustomStringConvertible {
    public var key: String
    public init(_ key: String) { self.key = key }
    public init(stringLiteral value: String) { key = value }
    public var description: String { key }
}

/// `IntentDescription("…")`.
public struct IntentDescription: ExpressibleByStringLiteral, Hashable, Sendable {
    public var text: String
    public init(_ text: String) { self.text = text }
    public init(stringLiteral value: String) { text = value }
}

/// What `perform()` returns.
public protocol IntentResult {}

/// The result of an intent that returns nothing (`.result()`).
public struct EmptyIntentResult: IntentResult { public init() {} }

extension IntentResult where Self == EmptyIntentResult {
    /// `return .result()`.
    public static func result() -> EmptyIntentResult { EmptyIntentResult() }
}

/// An action a widget can run: the target of `Button(intent:)` and `Toggle(isOn:intent:)`,
/// and (as `WidgetConfigurationIntent`) the configuration of an `AppIntentConfiguration`.
///
/// Parameters are the `@Parameter` properties; they are read and written by reflection, so an
/// intent needs `init()` (as in AppIntents) and every value it carries must be a parameter.
/// `perform()` runs in the bundle's worker process, on a background thread.
public protocol AppIntent {
    associatedtype PerformResult: IntentResult
    init()
    static var title: LocalizedStringResource { get }
    static var description: IntentDescription { get }
    static var isDiscoverable: Bool { get }
    func perform() async throws -> PerformResult
}

extension AppIntent {
    public static var description: IntentDescription { IntentDescription("") }
    public static var isDiscoverable: Bool { true }
}

/// The configuration intent of an `AppIntentConfiguration`: its `@Parameter`s are the widget's
/// user-editable settings (`config.json` → `"parameters"`, `preview --param`).
public protocol WidgetConfigurationIntent: AppIntent {}

extension WidgetConfigurationIntent where PerformResult == EmptyIntentResult {
    public func perform() async throws -> EmptyIntentResult { .result() }
}
