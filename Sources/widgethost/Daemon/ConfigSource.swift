import FoundationEssentials
import WidgetHostCore
import WidgetHostUV
#if canImport(Glibc)
import Glibc
#endif

/// Where `config.json` comes from and how it is read: an explicit `--config PATH`, else
/// `$XDG_CONFIG_HOME/widgethost/config.json` if it exists, else built-in defaults (XDG paths, every
/// widget of every bundle). Relative paths inside resolve against the file's directory.
///
/// The file must be a regular, non-empty file, read without blocking (a FIFO is refused, not
/// waited on: it froze the daemon's loop, issue 23; an editor's save can leave it empty or replace it
/// for a moment; "all defaults" then would remove every widget). For the daemon
/// (`forDaemon`), a `paths.plugins` other than the default must name an existing folder: a typo
/// there would otherwise unload every bundle, and the host does not create a folder it was
/// pointed at (the default one it creates on first run); `paths.state` and `paths.out` must not
/// be shared or another user's folders (`HostFolders`).
struct ConfigSource {
    /// Absolute path of the file, or nil for built-in defaults.
    let path: String?
    let environment: [String: String]
    let forDaemon: Bool

    init(explicitPath: String?, forDaemon: Bool = false) {
        environment = ProcessEnvironment.current()
        self.forDaemon = forDaemon
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
        func failure(_ at: String, _ reason: String) -> Result<HostConfig, ConfigLoadError> {
            .failure(ConfigLoadError(file: path, error: ConfigError(path: at, reason: reason)))
        }
        if FileIO.isDirectory(path) { return failure("", "is a folder, not a config file") }
        let data: Data
        do { data = try FileIO.readRegularFile(path) } catch { return failure("", error.description) }
        if data.allSatisfy({ $0 == 0x20 || $0 == 0x0a || $0 == 0x0d || $0 == 0x09 }) {
            return failure("", "the file is empty (write {} for every default)")
        }
        let config: HostConfig
        do { config = try ConfigParser.parse(data, baseDirectory: path.deletingLastPathComponent, environment: environment) }
        catch { return .failure(ConfigLoadError(file: path, error: error)) }
        let plugins = config.paths.plugins
        if forDaemon, plugins != HostPaths.defaults(environment).plugins, !FileIO.isDirectory(plugins) {
            return failure("paths.plugins", FileIO.exists(plugins) ? "\(plugins) is not a folder"
                           : "the folder \(plugins) does not exist (create it, or correct the path)")
        }
        if forDaemon, let shared = HostFolders.problem(config.paths) { return failure(shared.key, shared.reason) }
        return .success(config)
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
