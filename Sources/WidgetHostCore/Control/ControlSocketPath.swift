/// Where the control socket lives (DESIGN §9): `paths.socket` when the config sets it, else
/// `$XDG_RUNTIME_DIR/widgethost/control.sock`, else `<state>/control.sock`. Pure.
public enum ControlSocketPath {
    public static func resolve(_ paths: HostConfig.Paths, environment: [String: String]) -> String {
        if let s = paths.socket { return s }
        if let r = environment["XDG_RUNTIME_DIR"], r.hasPrefix("/") { return r + "/widgethost/control.sock" }
        return paths.state + "/control.sock"
    }
}
