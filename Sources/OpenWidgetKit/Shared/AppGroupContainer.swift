import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Where the shared containers of app groups live: `containers/<group-id>/`.
///
/// The root is `$WIDGETHOST_CONTAINERS` (the host sets it for its workers from `config.json`),
/// else `$XDG_DATA_HOME/widgethost/containers`, else `~/.local/share/widgethost/containers`.
public enum AppGroupContainer {
    public static var rootPath: String {
        if let p = getenv("WIDGETHOST_CONTAINERS").map({ String(cString: $0) }), !p.isEmpty { return p }
        if let x = getenv("XDG_DATA_HOME").map({ String(cString: $0) }), !x.isEmpty { return x + "/widgethost/containers" }
        let home = getenv("HOME").map { String(cString: $0) } ?? "/tmp"
        return home + "/.local/share/widgethost/containers"
    }

    /// True when `group` can name a directory: 1–128 characters of `[A-Za-z0-9._-]`, not `.`/`..`,
    /// so no group id can escape the containers root.
    public static func isValidGroupID(_ group: String) -> Bool {
        guard !group.isEmpty, group.utf8.count <= 128, group != ".", group != ".." else { return false }
        return group.utf8.allSatisfy { c in
            (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c == 46 || c == 45 || c == 95
        }
    }

    /// The container directory of `group` (created 0700 if missing), or nil for an invalid id.
    /// The analogue of `FileManager.containerURL(forSecurityApplicationGroupIdentifier:)`.
    public static func url(forAppGroup group: String, create: Bool = true) -> URL? {
        guard isValidGroupID(group) else { return nil }
        let path = rootPath + "/" + group
        if create { makeDirectories(path) }
        return URL(filePath: path, directoryHint: .isDirectory)
    }

    static func makeDirectories(_ path: String) {
        var current = path.hasPrefix("/") ? "" : "."
        for part in path.split(separator: "/") {
            current += "/" + part
            _ = mkdir(current, 0o700)
        }
    }
}
