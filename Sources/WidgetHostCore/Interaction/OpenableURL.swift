/// Which widget URLs a click may hand to the opener (`defaults.opener`). A plugin chooses its
/// `widgetURL` and `Link` destinations, and the opener runs them as its last argument: a
/// `widgetURL` of `--help` reached `xdg-open` as an option (issue 23). Only a URL that begins
/// with a scheme (`letter *( letter / digit / "+" / "-" / "." ) ":"`, RFC 3986) named in
/// `defaults.openSchemes` is opened — such a URL starts with a letter, so no opener can read it
/// as an option. (`--` is not added before it: `xdg-open` refuses `--` as an unknown option.)
/// Pure.
public enum OpenableURL {
    /// The scheme of `url`, lowercased; nil when it does not begin with one.
    public static func scheme(of url: String) -> String? {
        guard let colon = url.utf8.firstIndex(of: UInt8(ascii: ":")) else { return nil }
        let s = url.utf8[..<colon]
        guard let first = s.first, isLetter(first),
              s.allSatisfy({ isLetter($0) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2b || $0 == 0x2d || $0 == 0x2e }) else { return nil }
        return String(decoding: s, as: UTF8.self).lowercased()
    }

    /// Why `url` must not be opened with `allowed` schemes, or nil when it may.
    public static func refusal(_ url: String, allowed: [String]) -> String? {
        guard let scheme = scheme(of: url) else { return "\"\(url)\" does not begin with a URL scheme" }
        guard allowed.contains(scheme) else {
            return "the scheme \"\(scheme)\" is not in defaults.openSchemes (\(allowed.joined(separator: ", ")))"
        }
        return nil
    }

    static func isLetter(_ b: UInt8) -> Bool { (b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a) }
}
