/// The environment of the render process (`widgethost-render --serve`, docs/limits.md
/// "Pictures"): what drawing needs and nothing else. The daemon starts it with `cut(_:)` of its
/// own (so not even the process's first memory holds `HOME`, the session's or the agents'
/// sockets: `/proc/<pid>/environ` shows that memory, whatever `unsetenv` did later), and the
/// render cuts its own to `kept` again when it isolates itself (started by hand, it has them).
/// Pure values.
public enum RenderEnvironment {
    /// The variables kept, by name or by prefix (ending in `_`): the locale, the time zone, the
    /// font configuration, the XDG folders fontconfig finds the user's fonts and caches in, the
    /// Swift runtime's settings and `WIDGETHOST_SANDBOX`; not `HOME`, `PATH`, `XDG_RUNTIME_DIR`,
    /// `SSH_AUTH_SOCK`, `DBUS_SESSION_BUS_ADDRESS`, `DISPLAY` or any other.
    public static let kept = ["LANG", "LANGUAGE", "LC_", "TZ", "FONTCONFIG_", "SWIFT_", "WIDGETHOST_SANDBOX",
                              "XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_DATA_DIRS", "XDG_CONFIG_DIRS"]

    /// `environment` cut to `kept`, with the XDG folders that default to places under `HOME` set
    /// from it, so that fontconfig finds the same user fonts (all but the old `~/.fonts`).
    public static func cut(_ environment: [String: String]) -> [String: String] {
        var env = environment.filter { WorkerSandbox.keeps($0.key, kept) }
        if let home = environment["HOME"], home.hasPrefix("/") {
            for (name, underHome) in [("XDG_DATA_HOME", "/.local/share"), ("XDG_CONFIG_HOME", "/.config"), ("XDG_CACHE_HOME", "/.cache")]
            where env[name] == nil { env[name] = home + underHome }
        }
        return env
    }
}
