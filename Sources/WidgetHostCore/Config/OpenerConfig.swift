import OpenWidgetKit

extension ConfigParser {
    /// `defaults.opener`: a program name (`"xdg-open"`) or an argument vector
    /// (`["firefox", "--new-tab"]`); the URL is appended as the last argument.
    static func opener(_ v: JSONValue, at path: String) throws(ConfigError) -> [String] {
        var argv: [String]
        if case .string(let s) = v { argv = [s] } else {
            argv = []
            for (i, item) in try array(v, at: path).enumerated() { argv.append(try string(item, at: "\(path)[\(i)]")) }
        }
        guard let first = argv.first, !first.isEmpty else { throw ConfigError(path: path, reason: "must name a program") }
        return argv
    }

    /// `defaults.openSchemes`: the URL schemes a click may open (`["https", "http", "mailto"]`
    /// by default; an app's own scheme, `"myapp"`, or `"file"` are added here). Lowercased.
    static func openSchemes(_ v: JSONValue, at path: String) throws(ConfigError) -> [String] {
        var schemes: [String] = []
        for (i, item) in try array(v, at: path).enumerated() {
            let s = try string(item, at: "\(path)[\(i)]")
            guard OpenableURL.scheme(of: s + ":") == s.lowercased() else {
                throw ConfigError(path: "\(path)[\(i)]", reason: "\"\(s)\" is not a URL scheme (a letter, then letters, digits, +, - or .; no colon)")
            }
            schemes.append(s.lowercased())
        }
        return schemes
    }
}
