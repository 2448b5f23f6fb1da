/// Where the control socket lives (DESIGN §9): `paths.socket` when the config sets it, else in
/// `$XDG_RUNTIME_DIR/widgethost/`, else `<state>/control.sock`. Pure.
///
/// One daemon runs per state directory (`InstanceLock`), so the socket is per state directory
/// too: the default one is `control.sock`; a config with another `paths.state` gets
/// `control-<hash of the state path>.sock`, so two configs running side by side never contend
/// for one socket, and the CLI given `--config` finds its own daemon.
public enum ControlSocketPath {
    public static func resolve(_ paths: HostConfig.Paths, environment: [String: String]) -> String {
        if let s = paths.socket { return s }
        guard let r = environment["XDG_RUNTIME_DIR"], r.hasPrefix("/") else { return paths.state + "/control.sock" }
        if paths.state == HostPaths.defaults(environment).state { return r + "/widgethost/control.sock" }
        return r + "/widgethost/control-\(hash(paths.state)).sock"
    }

    /// 12 hex digits of the FNV-1a hash of `s`: stable across runs and builds (unlike `hashValue`).
    static func hash(_ s: String) -> String {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in s.utf8 { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01b3 }
        let hex = String(h, radix: 16)
        return String((String(repeating: "0", count: 16 - hex.count) + hex).prefix(12))
    }
}
