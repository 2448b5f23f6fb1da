import ArgumentParser
import FoundationEssentials
import WidgetConfigEditing
import WidgetHostCore

/// What `add`, `remove`, `configure`, `move` and `gallery` share: which config file (found as
/// every other command finds it) and how an edit is run — through `ConfigFileEditor`, whose
/// refusals end the command with status 1 and the reason on stderr, the file untouched.
struct ConfigEditOptions: ParsableArguments {
    @Option(name: .long, help: "The config file (default: $XDG_CONFIG_HOME/widgethost/config.json).",
            completion: .file(extensions: ["json"]))
    var config: String?

    /// The config file an edit writes: `--config`, else the default one (which must exist).
    /// `liveEntities`: a running host lists its bundles' entities again before the catalog is
    /// read (`LiveEntityOptions`), so a value offered only now is accepted.
    func editor(liveEntities: Bool = false) -> ConfigFileEditor {
        let source = ConfigSource(explicitPath: config)
        return ConfigFileEditor(path: source.path ?? HostPaths.defaultConfigFile(source.environment), environment: source.environment,
                                catalog: { config in
                                    if liveEntities { Self.refreshEntities(config, environment: source.environment) }
                                    return PluginFolderCatalog(config: config, manifestCache: BundleManifestCache(hostConfig: config))
                                })
    }

    /// `LiveEntityOptions.refresh`, its failure a warning on stderr (the cached options are read).
    static func refreshEntities(_ config: HostConfig, environment: [String: String]) {
        if let problem = LiveEntityOptions.refresh(config: config, environment: environment) { ControlClient.printError("warning: \(problem)") }
    }

    /// Applies `edit` to the file; returns the id it concerns. A refusal exits 1.
    func apply(_ edit: ConfigEdit, liveEntities: Bool = false) throws -> String {
        do { return try editor(liveEntities: liveEntities).edit { try $0.apply(edit) } } catch {
            ControlClient.printError("widgethost: \(error)")
            throw ExitCode(1)
        }
    }

    /// `NAME=VALUE` arguments as parameter assignments (the values are read as each parameter's type).
    static func assignments(_ arguments: [String]) throws -> [ParameterAssignment] {
        try arguments.map { a in
            do {
                let (name, text) = try ParameterValues.split(a)
                return ParameterAssignment(name: name, value: .text(text))
            } catch { throw ValidationError("\(error)") }
        }
    }
}
