import FoundationEssentials

/// A kind a loaded bundle declares that no configured widget places (issue 22): with a
/// `widgets` list in the config, a bundle dropped into the plugin folder shows nothing until a
/// widget names its kind. The host says so in the log, `status` and `validate`, each with the
/// command that places it. Value type; any thread.
public struct UnplacedKind: Codable, Equatable, Hashable, Sendable {
    public var kind: String
    /// The bundle's file name (`MyWidgets.so`).
    public var bundle: String
    /// The families the kind supports, as it declares them.
    public var families: [String]

    public init(kind: String, bundle: String, families: [String]) {
        self.kind = kind; self.bundle = bundle; self.families = families
    }

    /// `widgethost add KIND --family F` with the first family the kind declares, and
    /// `--config FILE` when the config is not the default one; nil when it declares no family.
    public func addCommand(configFile: String?) -> String? {
        guard let family = families.first else { return nil }
        return "widgethost add \(ShellWord.quote(kind)) --family \(family)" + (configFile.map { " --config \(ShellWord.quote($0))" } ?? "")
    }

    /// "counter: available, not placed — `widgethost add counter --family systemSmall`".
    public func line(configFile: String?) -> String {
        guard let command = addCommand(configFile: configFile) else { return "\(kind): available, not placed (\(bundle) declares no family for it)" }
        return "\(kind): available, not placed — `\(command)`"
    }
}
