import FoundationEssentials

/// The direction of a layout (`@Environment(\.layoutDirection)`): `.rightToLeft` mirrors
/// stacks, alignments and padding edges, as SwiftUI does for Arabic, Hebrew, Persian and Urdu.
///
/// On the wire a subtree laid out in a direction other than its parent's carries
/// `modifiers.other["layoutDirection"]` = `"rightToLeft"` / `"leftToRight"`: set by
/// `.environment(\.layoutDirection, …)` and, on a widget's root, by the SDK when the worker's
/// locale is written right to left (`forLocale`). The layout mirrors such a subtree; images,
/// shapes and text glyphs are not mirrored (text is shaped by the text engine). A plain value.
public enum LayoutDirection: String, Hashable, Sendable, CaseIterable {
    case leftToRight, rightToLeft

    /// The key of `modifiers.other` that carries a subtree's direction.
    public static let modifierKey = "layoutDirection"

    /// The languages written right to left (ISO 639-1/-2 codes, as POSIX locale names start).
    static let rightToLeftLanguages: Set<String> = ["ar", "arc", "ckb", "dv", "fa", "he", "iw", "ks", "ku", "ps", "sd", "ug", "ur", "yi"]

    /// The direction of a POSIX locale name (`ar_EG.UTF-8`, `he`, `fa_IR@x`): right to left
    /// when its language is written so, else left to right (also for `C`, `POSIX`, empty).
    public static func of(localeName raw: String) -> LayoutDirection {
        let language = raw.split(whereSeparator: { $0 == "_" || $0 == "-" || $0 == "." || $0 == "@" }).first.map { $0.lowercased() } ?? ""
        return rightToLeftLanguages.contains(language) ? .rightToLeft : .leftToRight
    }

    /// The direction of the locale in an environment: `LC_ALL`, else `LC_MESSAGES` (the
    /// language of the user interface), else `LANG`, as POSIX resolves a category.
    public static func forLocale(environment: (String) -> String?) -> LayoutDirection {
        for key in ["LC_ALL", "LC_MESSAGES", "LANG"] {
            if let v = environment(key), !v.isEmpty { return of(localeName: v) }
        }
        return .leftToRight
    }

    /// This process's direction, read once (a worker's locale is the daemon's).
    public static let process = forLocale(environment: LocaleFormats.processEnvironment)
}
