// Foundation's localisation entry points for widget code that imports Apple's module names,
// answered from the bundle's compiled string tables (OpenWidgetKit's `LocalizedStrings`)
// instead of `Bundle.main`, which in a worker is the worker's folder, not the bundle. Declared
// here, in a module that imports both Foundation and the SDK, they shadow Foundation's
// `NSLocalizedString`, so calls as written on iOS compile and find the bundle's strings.
// Pure over the bundle's catalogue; safe from any thread.
//
// `bundle: .main`, as iOS code writes it, is `WidgetResourceBundle.main` here, never evaluated
// as Foundation's `Bundle.main`: that one reads the executable's folder, which a sandboxed worker
// does not see, and traps (a `Bundle` value passed explicitly is accepted and ignored).

/// The bundle a widget's resources come from: its own `.so`, the only one it has here.
/// `.main` in `bundle: .main`. A value; safe from any thread.
public struct WidgetResourceBundle: Sendable {
    /// The widget bundle's own resources (`Bundle.main` on iOS).
    public static let main = WidgetResourceBundle()
    /// The same, for code written for a Swift package (`Bundle.module` on iOS).
    public static let module = WidgetResourceBundle()
}

/// `NSLocalizedString("key", comment: "")`: `key` in `tableName` (default `Localizable`) in the
/// user's language; `value` (or the key) when no table has it.
public func NSLocalizedString(_ key: String, tableName: String? = nil, bundle: WidgetResourceBundle = .main, value: String = "",
                              comment: String) -> String {
    LocalizedStrings.string(key, table: tableName, fallback: value.isEmpty ? key : value)
}

/// `NSLocalizedString(key, bundle: someBundle, comment:)`: as without `bundle`.
@_disfavoredOverload
public func NSLocalizedString(_ key: String, tableName: String? = nil, bundle: Bundle, value: String = "",
                              comment: String) -> String {
    NSLocalizedString(key, tableName: tableName, value: value, comment: comment)
}

extension String {
    /// `String(localized: "key", bundle: .main)`: as `String(localized:)`.
    public init(localized value: String.LocalizationValue, table: String? = nil, bundle: WidgetResourceBundle?, locale: Locale? = nil,
                comment: StaticString? = nil) {
        self.init(localized: value, table: table, locale: locale, comment: comment)
    }

    @_disfavoredOverload
    public init(localized value: String.LocalizationValue, table: String? = nil, bundle: Bundle?, locale: Locale? = nil,
                comment: StaticString? = nil) {
        self.init(localized: value, table: table, locale: locale, comment: comment)
    }
}

// The `bundle:` forms of SwiftUI's lookups by name: the widget's own catalogue is the only one.

extension Color {
    /// `Color("Brand", bundle: .main)`: as `Color("Brand")`.
    public init(_ name: String, bundle: WidgetResourceBundle?) { self.init(name) }
    @_disfavoredOverload public init(_ name: String, bundle: Bundle?) { self.init(name) }
}

extension Image {
    /// `Image("Logo", bundle: .main)`: as `Image("Logo")`.
    public init(_ name: String, bundle: WidgetResourceBundle?) { self.init(name) }
    @_disfavoredOverload public init(_ name: String, bundle: Bundle?) { self.init(name) }
}

extension Text {
    /// `Text("key", tableName: "Widgets", bundle: .main, comment: "…")`: as without `bundle`.
    public init(_ key: LocalizedStringKey, tableName: String? = nil, bundle: WidgetResourceBundle?, comment: StaticString? = nil) {
        self.init(key, tableName: tableName, comment: comment)
    }
    @_disfavoredOverload
    public init(_ key: LocalizedStringKey, tableName: String? = nil, bundle: Bundle?, comment: StaticString? = nil) {
        self.init(key, tableName: tableName, comment: comment)
    }
}
