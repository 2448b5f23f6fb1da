import Foundation

/// A bundle's string tables as Xcode compiles them: `.strings` files (in `xx.lproj/` folders, or
/// at the top for the development language), `.stringsdict` plural rules with one variable, and
/// `.xcstrings` string catalogues (their `stringUnit`s and `variations.plural`). A table is named
/// by its file (`Localizable`); `Base.lproj` is the language `Base`. What does not read is a
/// warning naming the file. Not thread-safe: one compile, one thread.
struct StringTables {
    /// Table → language → key → value.
    var strings: [String: [String: [String: String]]] = [:]
    /// Table → language → key → plural category → format.
    var plurals: [String: [String: [String: [String: String]]]] = [:]
    var developmentLanguage: String?
    var warnings: [String] = []

    /// The language of a file: its `xx.lproj` folder's, else `fallback`.
    static func language(of file: URL, fallback: String) -> String {
        let folder = file.deletingLastPathComponent()
        return folder.pathExtension == "lproj" ? folder.deletingPathExtension().lastPathComponent : fallback
    }

    mutating func add(_ file: URL, developmentLanguage fallback: String) {
        let table = file.deletingPathExtension().lastPathComponent
        switch file.pathExtension {
        case "strings":
            let language = Self.language(of: file, fallback: fallback)
            do {
                let pairs = try StringsFileParser.parse(try Self.text(of: file))
                strings[table, default: [:]][language, default: [:]].merge(pairs) { _, new in new }
            } catch {
                warn(file, "\(error); table left out")
            }
        case "stringsdict":
            stringsDict(file, table: table, language: Self.language(of: file, fallback: fallback))
        case "xcstrings":
            catalog(file, table: table)
        default: break
        }
    }

    /// A `.strings` file's text: UTF-16 when it starts with a byte-order mark, else UTF-8.
    static func text(of file: URL) throws -> String {
        let data = try Data(contentsOf: file)
        if data.starts(with: [0xFF, 0xFE]) || data.starts(with: [0xFE, 0xFF]) {
            guard let s = String(data: data, encoding: .utf16) else { throw StringsFileParser.Problem(description: "not UTF-16") }
            return s
        }
        guard let s = String(data: data, encoding: .utf8) else { throw StringsFileParser.Problem(description: "not UTF-8") }
        return s
    }

    private mutating func catalog(_ file: URL, table: String) {
        guard let data = try? Data(contentsOf: file),
              let root = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any],
              let entries = root["strings"] as? [String: Any] else {
            warn(file, "is not a string catalogue (JSON with \"strings\"); left out")
            return
        }
        let source = (root["sourceLanguage"] as? String) ?? "en"
        if developmentLanguage == nil { developmentLanguage = source }
        for (key, value) in entries {
            guard let localizations = (value as? [String: Any])?["localizations"] as? [String: Any] else { continue }
            for (language, l) in localizations {
                guard let l = l as? [String: Any] else { continue }
                if let unit = l["stringUnit"] as? [String: Any], let v = unit["value"] as? String {
                    strings[table, default: [:]][language, default: [:]][key] = v
                }
                if let plural = (l["variations"] as? [String: Any])?["plural"] as? [String: Any] {
                    var forms: [String: String] = [:]
                    for (category, form) in plural {
                        if let v = ((form as? [String: Any])?["stringUnit"] as? [String: Any])?["value"] as? String { forms[category] = v }
                    }
                    if !forms.isEmpty { plurals[table, default: [:]][language, default: [:]][key] = forms }
                }
                if l["substitutions"] != nil {
                    warn(file, "\"\(key)\" (\(language)): substitutions are not supported; its plain value is used")
                }
            }
        }
    }

    private mutating func stringsDict(_ file: URL, table: String, language: String) {
        guard let data = try? Data(contentsOf: file),
              let root = (try? PropertyListSerialization.propertyList(from: data, format: nil)) as? [String: Any] else {
            warn(file, "is not a property list; left out")
            return
        }
        for (key, value) in root {
            guard let entry = value as? [String: Any], let format = entry["NSStringLocalizedFormatKey"] as? String else { continue }
            let variables = entry.keys.filter { $0 != "NSStringLocalizedFormatKey" }
            guard variables.count == 1, let name = variables.first, let rule = entry[name] as? [String: Any] else {
                warn(file, "\"\(key)\": only one plural variable is supported; left out")
                continue
            }
            var forms: [String: String] = [:]
            for category in ["zero", "one", "two", "few", "many", "other"] {
                if let form = rule[category] as? String { forms[category] = format.replacingOccurrences(of: "%#@\(name)@", with: form) }
            }
            if !forms.isEmpty { plurals[table, default: [:]][language, default: [:]][key] = forms }
        }
    }

    private mutating func warn(_ file: URL, _ message: String) {
        warnings.append("\(file.path): warning: \(message)")
    }
}

/// The old-style property list of a `.strings` file: `"key" = "value";` pairs, `/* … */` and
/// `// …` comments, escapes `\"`, `\\`, `\n`, `\t`, `\r`, `\Uxxxx`; an unquoted word is read as
/// a string. Pure.
enum StringsFileParser {
    struct Problem: Error, CustomStringConvertible { var description: String }

    static func parse(_ text: String) throws -> [String: String] {
        var chars = Array(text.unicodeScalars)
        if chars.first == "\u{FEFF}" { chars.removeFirst() }
        var i = 0
        var line = 1
        var result: [String: String] = [:]

        func skip() throws {
            while i < chars.count {
                let c = chars[i]
                if c == "\n" { line += 1; i += 1 }
                else if c.properties.isWhitespace { i += 1 }
                else if c == "/" && i + 1 < chars.count && chars[i + 1] == "*" {
                    i += 2
                    while i + 1 < chars.count && !(chars[i] == "*" && chars[i + 1] == "/") { if chars[i] == "\n" { line += 1 }; i += 1 }
                    guard i + 1 < chars.count else { throw Problem(description: "line \(line): unterminated comment") }
                    i += 2
                } else if c == "/" && i + 1 < chars.count && chars[i + 1] == "/" {
                    while i < chars.count && chars[i] != "\n" { i += 1 }
                } else { return }
            }
        }

        func string() throws -> String {
            guard i < chars.count else { throw Problem(description: "line \(line): a string was expected") }
            var out = String.UnicodeScalarView()
            if chars[i] != "\"" {
                while i < chars.count, chars[i].properties.isAlphabetic || chars[i].properties.numericType != nil || "_.$:/-".unicodeScalars.contains(chars[i]) {
                    out.append(chars[i]); i += 1
                }
                guard !out.isEmpty else { throw Problem(description: "line \(line): unexpected \"\(chars[i])\"") }
                return String(out)
            }
            i += 1
            while i < chars.count && chars[i] != "\"" {
                var c = chars[i]
                if c == "\n" { line += 1 }
                if c == "\\" && i + 1 < chars.count {
                    i += 1
                    switch chars[i] {
                    case "n": c = "\n"
                    case "t": c = "\t"
                    case "r": c = "\r"
                    case "U", "u":
                        let hex = String(String.UnicodeScalarView(chars[(i + 1)..<min(i + 5, chars.count)]))
                        guard hex.count == 4, let v = UInt32(hex, radix: 16), let scalar = Unicode.Scalar(v) else {
                            throw Problem(description: "line \(line): bad \\U escape")
                        }
                        c = scalar
                        i += 4
                    default: c = chars[i]
                    }
                }
                out.append(c)
                i += 1
            }
            guard i < chars.count else { throw Problem(description: "line \(line): unterminated string") }
            i += 1
            return String(out)
        }

        while true {
            try skip()
            guard i < chars.count else { break }
            let key = try string()
            try skip()
            if i < chars.count && chars[i] == ";" { result[key] = key; i += 1; continue }
            guard i < chars.count && chars[i] == "=" else { throw Problem(description: "line \(line): \"=\" expected after \"\(key)\"") }
            i += 1
            try skip()
            let value = try string()
            try skip()
            guard i < chars.count && chars[i] == ";" else { throw Problem(description: "line \(line): \";\" expected after \"\(key)\"") }
            i += 1
            result[key] = value
        }
        return result
    }
}
