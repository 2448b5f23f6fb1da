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
/// waited on: it froze the daemon's loop, issue 23; an editor's save can leave it empty or
/// replace it for a moment; "all defaults" then would remove every widget). For the daemon, and
/// for `validate`, which judges a config as the daemon does (`forDaemon`), a `paths.plugins`
/// other than the default must name an existing folder: a typo there would otherwise unload
/// every bundle, and the host does not create a folder it was pointed at (the default one it
/// creates on first run); `paths.state` and `paths.out` must not be shared or another user's
/// folders (`HostFolders`).
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

    /// Reads and parses the file; the error names the file, the JSON path and the reason (the
    /// first of `check()`'s errors).
    func load() -> Result<HostConfig, ConfigLoadError> {
        let checked = check()
        if let first = checked.errors.first { return .failure(ConfigLoadError(file: checked.file, error: first)) }
        return .success(checked.config)
    }

    /// Every reason the file cannot be run, in order: what `run` refuses and `validate` lists
    /// (one code path for both, so `validate` never approves a config `run` refuses). `config`
    /// is fit to use only when `errors` is empty.
    func check() -> ConfigCheck {
        guard let path else {
            let c = ConfigParser.check(Data(), baseDirectory: "/", environment: environment)
            return ConfigCheck(file: "(defaults)", config: c.config, errors: c.errors)
        }
        let defaults = ConfigParser.check(Data(), baseDirectory: "/", environment: environment).config
        func refused(_ reason: String) -> ConfigCheck {
            ConfigCheck(file: path, config: defaults, errors: [ConfigError(path: "", reason: reason)])
        }
        if FileIO.isDirectory(path) { return refused("is a folder, not a config file") }
        let data: Data
        do { data = try FileIO.readRegularFile(path) } catch { return refused(error.description) }
        if data.allSatisfy({ $0 == 0x20 || $0 == 0x0a || $0 == 0x0d || $0 == 0x09 }) {
            return refused("the file is empty (write {} for every default)")
        }
        var checked = ConfigParser.check(data, baseDirectory: path.deletingLastPathComponent, environment: environment)
        let plugins = checked.config.paths.plugins
        let pluginsParsed = !checked.errors.contains { $0.path == "paths.plugins" || $0.path == "paths" || $0.path.isEmpty }
        if forDaemon, pluginsParsed, plugins != HostPaths.defaults(environment).plugins, !FileIO.isDirectory(plugins) {
            let reason = FileIO.exists(plugins) ? "\(plugins) is not a folder" : "the folder \(plugins) does not exist (create it, or correct the path)"
            checked.errors.append(ConfigError(path: "paths.plugins", reason: reason))
        }
        if forDaemon, let shared = HostFolders.problem(checked.config.paths) {
            checked.errors.append(ConfigError(path: shared.key, reason: shared.reason))
        }
        return ConfigCheck(file: path, config: checked.config, errors: checked.errors)
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

/// A config file's verdict (`ConfigSource.check`): the file (or "(defaults)"), what could be
/// read, and every error, each worded as both `run` and `validate` print it.
struct ConfigCheck {
    let file: String
    let config: HostConfig
    let errors: [ConfigError]
}

struct ConfigLoadError: Error, CustomStringConvertible {
    let file: String
    let error: ConfigError
    var description: String { "\(file): \(error.description)" }
}
