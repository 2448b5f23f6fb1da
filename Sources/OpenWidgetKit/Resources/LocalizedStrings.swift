import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Looks up the bundle's strings (`Localizable.strings`, `.xcstrings`, `*.lproj/`) as iOS does
/// for `Text("key")`, `String(localized:)`, `NSLocalizedString` and `LocalizedStringResource`:
/// in the user's language, then the bundle's development language, then the key itself.
///
/// The user's language is the worker's locale for messages, as POSIX defines it: `LC_ALL`, else
/// `LC_MESSAGES`, else `LANG` (`de_DE.UTF-8` → tables `de-DE`, `de_DE`, then `de`); `C`, `POSIX`
/// or unset pick the development language. `Base.lproj` counts as the development language.
/// Pure lookups over the immutable catalogue; safe from any thread.
public enum LocalizedStrings {
    /// The table languages tried for a POSIX locale name, most specific first.
    public static func candidates(forLocale raw: String) -> [String] {
        var name = Substring(raw)
        if let cut = name.firstIndex(where: { $0 == "." || $0 == "@" }) { name = name[..<cut] }
        guard !name.isEmpty, name != "C", name != "POSIX" else { return [] }
        let parts = name.split(whereSeparator: { $0 == "_" || $0 == "-" }).map(String.init)
        guard let language = parts.first?.lowercased() else { return [] }
        if parts.count > 1 {
            return [language + "-" + parts[1], language + "_" + parts[1], language]
        }
        return [language]
    }

    /// The user's languages from this process's environment, read once.
    public static let userLanguages: [String] = {
        for key in ["LC_ALL", "LC_MESSAGES", "LANG"] {
            if let v = getenv(key).map({ String(cString: $0) }), !v.isEmpty { return candidates(forLocale: v) }
        }
        return []
    }()

    /// The value of `key` in `table` for `languages` (then the development language, then
    /// `Base`), or nil.
    public static func lookup(_ key: String, table: String? = nil, languages: [String] = userLanguages,
                              in resources: BundleResources = .current) -> String? {
        let catalog = resources.catalog
        guard let byLanguage = catalog.strings?[table ?? "Localizable"] else { return nil }
        for language in searchOrder(languages, catalog) { if let v = byLanguage[language]?[key] { return v } }
        return nil
    }

    /// The plural forms of `key` (category → format) for `languages`, and the language they are
    /// in, or nil.
    static func pluralForms(_ key: String, table: String?, languages: [String],
                            in resources: BundleResources) -> (language: String, forms: [String: String])? {
        let catalog = resources.catalog
        guard let byLanguage = catalog.plurals?[table ?? "Localizable"] else { return nil }
        for language in searchOrder(languages, catalog) {
            if let forms = byLanguage[language]?[key] { return (language, forms) }
        }
        return nil
    }

    /// Whether the bundle has any string table (so a key not found is worth naming).
    static func hasTables(_ resources: BundleResources) -> Bool {
        !(resources.catalog.strings?.isEmpty ?? true) || !(resources.catalog.plurals?.isEmpty ?? true)
    }

    private static func searchOrder(_ languages: [String], _ catalog: BundleResources.Catalog) -> [String] {
        let development = catalog.developmentLanguage ?? "en"
        return languages + [development, "Base"]
    }

    /// `key` localised and formatted with `arguments`: the plural form when the key has plural
    /// variations (chosen by the first integer argument), else the table's value; when no table
    /// has it, `fallback` (or the key formatted), recorded as missing when the bundle has tables.
    public static func string(_ key: String, table: String? = nil, arguments: [LocalizationArgument] = [],
                              fallback: String? = nil,
                              languages: [String] = userLanguages, in resources: BundleResources = .current) -> String {
        if let (language, forms) = pluralForms(key, table: table, languages: languages, in: resources) {
            let count = arguments.lazy.compactMap(\.integer).first ?? 0
            let category = PluralRule.category(for: count, language: language)
            if let format = forms[category] ?? forms["other"] { return arguments.isEmpty ? format : LocalizedFormat.apply(format, arguments) }
        }
        if let format = lookup(key, table: table, languages: languages, in: resources) {
            return arguments.isEmpty ? format : LocalizedFormat.apply(format, arguments)
        }
        if hasTables(resources) {
            ResourceMisses.record("string \"\(key)\"" + (languages.first.map { " (\($0))" } ?? ""))
        }
        return fallback ?? LocalizedFormat.apply(key, arguments)
    }
}

/// A value interpolated into a localised string (`"\(count) steps"` → key `"%lld steps"`).
public enum LocalizationArgument: Hashable, Sendable {
    case string(String)
    case integer(Int64)
    case double(Double)

    var integer: Int64? { if case .integer(let i) = self { i } else { nil } }

    /// An interpolated value as its argument: an integer, a floating-point number, else `plain`
    /// (the characters the text shows for it).
    static func of<T>(_ value: T, plain: String) -> LocalizationArgument {
        if let i = value as? any BinaryInteger, let n = Int64(exactly: i) { return .integer(n) }
        if let d = value as? Double { return .double(d) }
        if let f = value as? Float { return .double(Double(f)) }
        return .string(plain)
    }

    /// The specifier Apple's key uses for this value: `%@`, `%lld`, `%lf`.
    var specifier: String {
        switch self {
        case .string: "%@"
        case .integer: "%lld"
        case .double: "%lf"
        }
    }
}

/// CLDR's plural categories for the languages widget bundles ship most (`one` for exactly 1 in
/// English, German, Spanish, Italian, Dutch, Portuguese…; 0 and 1 in French; no distinction in
/// Japanese, Chinese, Korean; the Slavic `few`/`many` for Russian, Ukrainian and Polish).
/// Languages not listed follow English. Pure.
public enum PluralRule {
    public static func category(for n: Int64, language: String) -> String {
        let lang = String(language.prefix { $0 != "-" && $0 != "_" }).lowercased()
        switch lang {
        case "ja", "zh", "ko", "vi", "th", "id": return "other"
        case "fr": return n == 0 || n == 1 ? "one" : "other"
        case "ru", "uk", "pl":
            let m10 = n % 10, m100 = n % 100
            if lang != "pl" && m10 == 1 && m100 != 11 { return "one" }
            if lang == "pl" && n == 1 { return "one" }
            if (2...4).contains(m10) && !(12...14).contains(m100) { return "few" }
            return "many"
        default: return n == 1 ? "one" : "other"
        }
    }
}

/// The printf subset localised strings use: `%@`, `%d`/`%ld`/`%lld`/`%i`, `%u`, `%f`/`%lf` with
/// an optional precision (`%.1f`), `%%`, and positions (`%1$@`, `%2$lld`). A specifier with no
/// argument is left as written. Pure.
public enum LocalizedFormat {
    public static func apply(_ format: String, _ arguments: [LocalizationArgument]) -> String {
        guard format.contains("%") else { return format }
        var out = ""
        var next = 0
        var i = format.startIndex
        while i < format.endIndex {
            let c = format[i]
            guard c == "%" else { out.append(c); i = format.index(after: i); continue }
            var j = format.index(after: i)
            guard j < format.endIndex else { out.append(c); break }
            if format[j] == "%" { out.append("%"); i = format.index(after: j); continue }
            // %[n$][.p](l|ll|h|q|z)*(@|d|i|u|f|F|e|g|s)
            var digits = ""
            while j < format.endIndex, format[j].isASCII, format[j].isNumber { digits.append(format[j]); j = format.index(after: j) }
            var position: Int?
            if j < format.endIndex, format[j] == "$", let n = Int(digits) { position = n - 1; j = format.index(after: j); digits = "" }
            var precision: Int?
            if j < format.endIndex, format[j] == "." {
                j = format.index(after: j)
                var p = ""
                while j < format.endIndex, format[j].isASCII, format[j].isNumber { p.append(format[j]); j = format.index(after: j) }
                precision = Int(p) ?? 0
            }
            while j < format.endIndex, "lhqzjt".contains(format[j]) { j = format.index(after: j) }
            guard j < format.endIndex, "@diufFeEgGsc".contains(format[j]) else {
                out += format[i..<j]; i = j; continue
            }
            let conversion = format[j]
            let index = position ?? next
            if position == nil { next += 1 }
            guard arguments.indices.contains(index) else {
                out += format[i...j]; i = format.index(after: j); continue
            }
            out += render(arguments[index], conversion, precision)
            i = format.index(after: j)
        }
        return out
    }

    private static func render(_ argument: LocalizationArgument, _ conversion: Character, _ precision: Int?) -> String {
        switch (argument, conversion) {
        case (.double(let d), "f"), (.double(let d), "F"):
            return fixed(d, precision ?? 6)
        case (.integer(let n), "f"), (.integer(let n), "F"):
            return fixed(Double(n), precision ?? 6)
        case (.double(let d), "d"), (.double(let d), "i"), (.double(let d), "u"):
            return String(Int64(d.isFinite ? max(min(d, 9.2e18), -9.2e18) : 0))
        case (.string(let s), _): return s
        case (.integer(let n), _): return String(n)
        case (.double(let d), _): return String(d)
        }
    }

    /// `d` with exactly `digits` decimals, rounded half away from zero (printf's `%.Nf`).
    static func fixed(_ d: Double, _ digits: Int) -> String {
        guard d.isFinite else { return String(d) }
        let places = min(max(digits, 0), 15)
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        let scaled = (abs(d) * scale).rounded(.toNearestOrAwayFromZero)
        guard scaled < 9e18 else { return String(d) }
        let whole = Int64(scaled)
        var text = String(whole)
        if places > 0 {
            if text.count <= places { text = String(repeating: "0", count: places - text.count + 1) + text }
            text.insert(".", at: text.index(text.endIndex, offsetBy: -places))
        }
        return (d < 0 && whole != 0 ? "-" : "") + text
    }
}
