/// The session-bus names a bundle declares (`BundleManifest.busNames`, Flatpak's
/// `--talk-name`) and the `xdg-dbus-proxy` that enforces them (docs/limits.md "D-Bus").
///
/// A name is a well-known bus name as the D-Bus specification defines it (two or more elements
/// of `[A-Za-z0-9_-]`, not starting with a digit, at most 255 bytes; no unique `:1.x` names),
/// optionally ending in `.*` — xdg-dbus-proxy's wildcard for the name and every name beneath it
/// (`org.mpris.MediaPlayer2.*`). A bundle gets at most `maximumCount`; the bus itself
/// (`org.freedesktop.DBus`) is never declared: the proxy always answers for it, filtered. Pure
/// values; any thread.
public enum BusProxyRule {
    public static let maximumCount = 16

    /// Whether `name` may be declared.
    public static func isValid(_ name: String) -> Bool {
        let bare = name.hasSuffix(".*") ? String(name.dropLast(2)) : name
        guard !bare.isEmpty, bare.utf8.count <= 255, bare != "org.freedesktop.DBus" else { return false }
        let elements = bare.split(separator: ".", omittingEmptySubsequences: false)
        guard elements.count >= 2 else { return false }
        return elements.allSatisfy { e in
            guard let first = e.utf8.first, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else { return false }
            return e.utf8.allSatisfy { c in
                (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(c) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(c)
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(c) || c == UInt8(ascii: "_") || c == UInt8(ascii: "-")
            }
        }
    }

    /// The declared names the host honours: the valid ones, each once, at most `maximumCount`.
    public static func accepted(_ names: [String]) -> [String] {
        var out: [String] = []
        for n in names where isValid(n) && !out.contains(n) && out.count < maximumCount { out.append(n) }
        return out
    }

    /// Why some of `names` are not honoured (one line for the log and `status`), or nil.
    public static func problem(_ names: [String]) -> String? {
        let invalid = names.filter { !isValid($0) }
        if !invalid.isEmpty { return "ignoring invalid bus names \(invalid.map { "\"\($0)\"" }.joined(separator: ", "))" }
        if Set(names).count > maximumCount { return "only the first \(maximumCount) bus names are honoured" }
        return nil
    }

    /// The arguments of `xdg-dbus-proxy` for a worker that talks to `names`: the session bus at
    /// `busAddress` seen at `socket`, filtered (`--filter`), with a `--talk` per name; `syncFD`
    /// is the descriptor whose closing ends the proxy (its readiness byte is written to it).
    public static func proxyArguments(busAddress: String, socket: String, names: [String], syncFD: Int32) -> [String] {
        ["--fd=\(syncFD)", busAddress, socket, "--filter"] + names.map { "--talk=" + $0 }
    }
}
