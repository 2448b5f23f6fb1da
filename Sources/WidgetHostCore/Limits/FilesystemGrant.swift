import FoundationEssentials

/// A read-only path outside the containers that a bundle's worker may read: declared by the
/// bundle (`filesystems` in its manifest, `WidgetPluginExport.entry(…, filesystems:)`) or granted
/// by the person (`bundles.<id>.filesystems` in config.json), in Flatpak's `--filesystem` style:
/// `~/x:ro` (under `$HOME`), `xdg-data/x:ro`, `xdg-config/x:ro`, `xdg-cache/x:ro` (under the XDG
/// folder, its default when unset) or `/abs/x:ro`. Only `:ro` exists: a worker writes only its
/// containers. The sandbox binds each read-only into the worker's mount namespace and allows
/// it under Landlock (`WorkerSandbox.Spec.readOnly`); the host watches each folder as it watches
/// a container and reloads the bundle's widgets when something in it changes.
///
/// Refused (with the reason): another suffix or none, `..`, a path that is `/`, `$HOME` itself,
/// or is, holds or lies in a folder of the host's own (`protected`: the state, containers, plugins and out
/// folders and the control socket's: a worker must not reach the socket or another bundle's
/// container through a grant). Pure functions of their arguments; any thread.
public enum FilesystemGrant {
    public struct Refusal: Error, Equatable, CustomStringConvertible { public let description: String }

    /// The absolute path `declaration` names in `environment`, or why it is refused.
    public static func resolve(_ declaration: String, environment: [String: String], protected: [String] = []) -> Result<String, Refusal> {
        func refuse(_ why: String) -> Result<String, Refusal> { .failure(Refusal(description: "filesystem \"\(declaration)\": \(why)")) }
        guard declaration.hasSuffix(":ro") else { return refuse("only read-only access exists: end it in :ro") }
        let spec = String(declaration.dropLast(3))
        guard !spec.contains("\n"), !spec.contains("\0") else { return refuse("a line break or NUL in the path") }
        let home = environment["HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
        func xdg(_ name: String, _ underHome: String) -> String? {
            environment[name].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? home.map { $0 + underHome }
        }
        let base: String?, rest: Substring
        if spec.hasPrefix("/") { base = ""; rest = spec.dropFirst(0) }
        else if spec.hasPrefix("~/") { base = home; rest = spec.dropFirst(1) }
        else if spec.hasPrefix("xdg-data/") { base = xdg("XDG_DATA_HOME", "/.local/share"); rest = spec.dropFirst(8) }
        else if spec.hasPrefix("xdg-config/") { base = xdg("XDG_CONFIG_HOME", "/.config"); rest = spec.dropFirst(10) }
        else if spec.hasPrefix("xdg-cache/") { base = xdg("XDG_CACHE_HOME", "/.cache"); rest = spec.dropFirst(9) }
        else { return refuse("start it with /, ~/, xdg-data/, xdg-config/ or xdg-cache/") }
        guard let base else { return refuse("$HOME is not set") }
        let parts = rest.split(separator: "/")
        guard !parts.contains("..") else { return refuse("\"..\" is not allowed") }
        let path = base + "/" + parts.filter { $0 != "." }.joined(separator: "/")
        let trimmed = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
        guard trimmed != "/", trimmed != home else { return refuse("names the whole of / or $HOME: name the folder it needs") }
        for p in protected where p.hasPrefix("/") && (p == trimmed || p.hasPrefix(trimmed + "/") || trimmed.hasPrefix(p + "/")) {
            return refuse("overlaps the host's own folder \(p)")
        }
        return .success(trimmed)
    }

    /// The paths of the valid `declarations`, each once, in order; the refusals beside them.
    public static func resolveAll(_ declarations: [String], environment: [String: String], protected: [String] = [])
        -> (paths: [String], refusals: [Refusal]) {
        var paths: [String] = [], refusals: [Refusal] = []
        for d in declarations {
            switch resolve(d, environment: environment, protected: protected) {
            case .success(let p): if !paths.contains(p) { paths.append(p) }
            case .failure(let r): refusals.append(r)
            }
        }
        return (paths, refusals)
    }
}
