/// Looks up `Image(systemName:)` names in `SymbolTable` (the Material Icons stand-in for SF
/// Symbols). Immutable: safe from any thread.
public enum SymbolFont {
    private static let byName: [String: UInt32] = {
        var d: [String: UInt32] = [:]
        for row in SymbolTable.rows { d[row.symbol] = row.codepoint }
        return d
    }()

    /// The icon font's codepoint for `symbol`, trying its base names (`"flame.circle.fill"` →
    /// `"flame.circle"` → `"flame"`); nil when none is mapped (drawn as the fallback box).
    public static func codepoint(for symbol: String) -> UInt32? {
        var name = Substring(symbol)
        while true {
            if let c = byName[String(name)] { return c }
            guard let dot = name.lastIndex(of: ".") else { return nil }
            name = name[..<dot]
        }
    }

    /// Every SF Symbol name the table maps.
    public static var mappedNames: [String] { SymbolTable.rows.map(\.symbol) }
}
