// Foundation's localisation entry points for widget code that imports Apple's module names,
// answered from the bundle's compiled string tables (OpenWidgetKit's `LocalizedStrings`)
// instead of `Bundle.main`, which in a worker is the worker's folder, not the bundle. Declared
// here, in a module that imports both Foundation and the SDK, they shadow Foundation's
// `NSLocalizedString`, so calls as written on iOS compile and find the bundle's strings.
// Pure over the bundle's catalogue; safe from any thread.

/// `NSLocalizedString("key", comment: "")`: `key` in `tableName` (default `Localizable`) in the
/// user's language; `value` (or the key) when no table has it. `bundle` is accepted and ignored:
/// a widget bundle's strings are compiled into it.
public func NSLocalizedString(_ key: String, tableName: String? = nil, bundle: Bundle = Bundle.main, value: String = "",
                              comment: String) -> String {
    LocalizedStrings.string(key, table: tableName, fallback: value.isEmpty ? key : value)
}

extension String {
    /// `String(localized: "key", bundle: .main)`: as `String(localized:)` (the bundle's tables;
    /// `bundle` is ignored).
    public init(localized value: String.LocalizationValue, table: String? = nil, bundle: Bundle?, locale: Locale? = nil,
                comment: StaticString? = nil) {
        self.init(localized: value, table: table, locale: locale, comment: comment)
    }
}

// The `bundle:` forms of SwiftUI's lookups by name, as iOS code writes them (`bundle: .main`):
// the bundle's own catalogue is the only one a widget has here, so `bundle` is ignored.

extension Color {
    /// `Color("Brand", bundle: .main)`: as `Color("Brand")`.
    public init(_ name: String, bundle: Bundle?) { self.init(name) }
}

extension Image {
    /// `Image("Logo", bundle: .main)`: as `Image("Logo")`.
    public init(_ name: String, bundle: Bundle?) { self.init(name) }
}

extension Text {
    /// `Text("key", tableName: "Widgets", bundle: .main, comment: "…")`: as without `bundle`.
    public init(_ key: LocalizedStringKey, tableName: String? = nil, bundle: Bundle?, comment: StaticString? = nil) {
        self.init(key, tableName: tableName, comment: comment)
    }
}
