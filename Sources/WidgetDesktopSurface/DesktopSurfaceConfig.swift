import FoundationEssentials
import WidgetHostCore
#if canImport(Glibc)
import Glibc
#endif

/// The configuration a desktop surface starts from: `--config FILE` or the default config file
/// (none: the defaults), parsed as the host parses it, so a bad file is refused in the host's
/// words before any display is opened. Value type.
public struct DesktopSurfaceConfig {
    public var config: HostConfig
    /// The file read, nil when there was none (the defaults).
    public var path: String?
    public var environment: [String: String]
    public var desktop: DesktopConfig { config.desktop ?? DesktopConfig() }
    /// The host's control socket (view stream and clicks).
    public var controlSocket: String { ControlSocketPath.resolve(config.paths, environment: environment) }
    /// The file edits write: the one read, else the default one.
    public var editPath: String { path ?? HostPaths.defaultConfigFile(environment) }

    /// Loads `explicitPath` (relative to the working directory) or the default config file.
    /// Throws a message naming the file and the JSON path of what is wrong.
    public static func load(explicitPath: String?, environment: [String: String] = ProcessEnvironment.current()) throws(Failure) -> DesktopSurfaceConfig {
        let path: String? = explicitPath.map(absolute) ?? {
            let d = HostPaths.defaultConfigFile(environment)
            return FileIO.exists(d) ? d : nil
        }()
        do {
            let config: HostConfig
            if let path {
                let data = try FileIO.readRegularFile(path)
                config = try ConfigParser.parse(data, baseDirectory: path.deletingLastPathComponent, environment: environment)
            } else {
                config = try ConfigParser.parse(Data(), baseDirectory: "/", environment: environment)
            }
            return DesktopSurfaceConfig(config: config, path: path, environment: environment)
        } catch {
            throw Failure(description: "\(path ?? "(defaults)"): \(error)")
        }
    }

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// `p` made absolute against the working directory.
    public static func absolute(_ p: String) -> String {
        if p.hasPrefix("/") { return p }
        var buf = [CChar](repeating: 0, count: 4096)
        return (getcwd(&buf, buf.count).map { String(cString: $0) } ?? ".") + "/" + p
    }
}
