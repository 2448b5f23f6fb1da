import FoundationEssentials
import WidgetHostCore
import WidgetHostUV
#if canImport(Glibc)
import Glibc
#endif

/// Where `config.json` comes from and how it is read: an explicit `--config PATH`, else
/// `$XDG_CONFIG_HOME/widgethost/config.json` if it exists, else built-in defaults (XDG paths, every
/// widget of every bundle). Relative paths inside resolve against the file's directory.
struct ConfigSource {
    /// Absolute path of the file, or nil for built-in defaults.
    let path: String?
    let environment: [String: String]

    init(explicitPath: String?) {
        environment = ProcessEnvironment.current()
        if let p = explicitPath {
            path = Self.absolute(p)
        } else {
            let d = HostPaths.defaultConfigFile(environment)
            path = FileIO.exists(d) ? d : nil
        }
    }

    var directory: String? { path?.deletingLastPathComponent }
    var fileName: String? { path?.lastPathComponent }

    /// Reads and parses the file; the error names the file, the JSON path and the reason.
    func load() -> Result<HostConfig, ConfigLoadError> {
        guard let path else {
            do { return .success(try ConfigParser.parse(Data(), baseDirectory: "/", environment: environment)) }
            catch { return .failure(ConfigLoadError(file: "(defaults)", error: error)) }
        }
        guard let data = FileIO.read(path) else {
            return .failure(ConfigLoadError(file: path, error: ConfigError(path: "", reason: "cannot read the file: \(String(cString: strerror(errno)))")))
        }
        do { return .success(try ConfigParser.parse(data, baseDirectory: path.deletingLastPathComponent, environment: environment)) }
        catch { return .failure(ConfigLoadError(file: path, error: error)) }
    }

    static func absolute(_ p: String) -> String {
        if p.hasPrefix("/") { return p }
        var buf = [CChar](repeating: 0, count: 4096)
        let cwd = getcwd(&buf, buf.count).map { String(cString: $0) } ?? "."
        var rel = Substring(p)
        while rel.hasPrefix("./") { rel = rel.dropFirst(2) }
        return cwd + "/" + rel
    }
}

struct ConfigLoadError: Error, CustomStringConvertible {
    let file: String
    let error: ConfigError
    var description: String { "\(file): \(error.description)" }
}
