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
    func editor() -> ConfigFileEditor {
        let source = ConfigSource(explicitPath: config)
        return ConfigFileEditor(path: source.path ?? HostPaths.defaultConfigFile(source.environment), environment: source.environment,
                                catalog: { PluginFolderCatalog(config: $0, manifestCache: BundleManifestCache(hostConfig: $0)) })
    }

    /// Applies `edit` to the file; returns the id it concerns. A refusal exits 1.
    func apply(_ edit: ConfigEdit) throws -> String {
        do { return try editor().edit { try $0.apply(edit) } } catch {
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
