import FoundationEssentials

/// A localizable string as Foundation and AppIntents name it: a key (Apple's form, `"%lld
/// steps"`, when it was written with interpolation), its table and values. `Text(resource)` and
/// `String(localized: resource)` show it in the user's language (`LocalizedStrings`); `key` and
/// `description` are the text as written. Values: safe from any thread.
public struct LocalizedStringResource: ExpressibleByStringLiteral, ExpressibleByStringInterpolation,
    Hashable, Sendable, CustomStringConvertible {
    public var key: String
    /// The table (`nil`: `Localizable`).
    public var table: String?
    /// Apple's key for the tables and the interpolated values.
    var tableKey: String
    var arguments: [LocalizationArgument] = []

    public init(_ key: String) { self.key = key; tableKey = key }
    /// `LocalizedStringResource("Steps", table: "Widgets", comment: "…")`.
    public init(_ key: String, table: String? = nil, comment: StaticString? = nil) { self.key = key; tableKey = key; self.table = table }
    public init(stringLiteral value: String) { key = value; tableKey = value }
    public init(stringInterpolation: LocalizedStringKey.StringInterpolation) {
        let k = LocalizedStringKey(stringInterpolation: stringInterpolation)
        key = k.key; tableKey = k.tableKey; arguments = k.arguments
    }
    public var description: String { key }

    /// The string in the user's language (the text as written when there is no translation).
    public var localized: String {
        let resources = BundleResources.current
        guard LocalizedStrings.hasTables(resources) else { return key }
        return LocalizedStrings.string(tableKey, table: table, arguments: arguments, fallback: key, in: resources)
    }
}

extension String {
    /// `String.LocalizationValue`: a string literal with interpolated values, as a key.
    public typealias LocalizationValue = LocalizedStringKey

    /// `String(localized: "Steps", comment: "…")`: the key in the user's language (the bundle's
    /// string tables, `LocalizedStrings`), else as written.
    public init(localized value: LocalizationValue, table: String? = nil, locale: Locale? = nil, comment: StaticString? = nil) {
        self = value.localizedText(table: table).plainText
    }

    /// `String(localized: resource)`.
    public init(localized resource: LocalizedStringResource) { self = resource.localized }
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
