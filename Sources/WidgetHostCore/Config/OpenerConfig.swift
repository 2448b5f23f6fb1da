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
}
