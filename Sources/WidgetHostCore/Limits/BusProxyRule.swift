import OpenWidgetKit
#if canImport(Glibc)
import Glibc
#endif

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

    /// Where the system bus is for a host with `environment`: `DBUS_SYSTEM_BUS_ADDRESS`, else
    /// the well-known `unix:path=/run/dbus/system_bus_socket` (the D-Bus specification's).
    public static func systemBusAddress(_ environment: [String: String]) -> String {
        if let a = environment["DBUS_SYSTEM_BUS_ADDRESS"], !a.isEmpty { return a }
        return "unix:path=/run/dbus/system_bus_socket"
    }

    /// Why the system bus at `address` is not there (its socket file is missing), or nil when it
    /// may be: only `unix:path=` addresses are checked, the others are left to the connection.
    public static func systemBusMissing(_ address: String) -> String? {
        guard address.hasPrefix("unix:path=") else { return nil }
        let path = String(address.dropFirst("unix:path=".count).prefix { $0 != "," && $0 != ";" })
        return access(path, F_OK) == 0 ? nil : "no system bus (\(path) does not exist)"
    }
}

/// What the host watches on its own bus connections for a bundle: each declared signal
/// (`BundleManifest.busSignals`) whose sender is one of the bundle's accepted bus names of its
/// bus (`busNames`, or `systemBusNames` for `bus: "system"`), and the owner changes of those
/// names (a player appearing or leaving) — `system` says which connection. A signal that matches reloads
/// the bundle's timelines (`WidgetHost.busSignalArrived`). Pure values; any thread.
public struct BusWatch: Hashable, Sendable {
    /// The match rule given to the bus (`AddMatch`).
    public let rule: String
    let interface: String
    let member: String
    let path: String?
    /// For `NameOwnerChanged`: the name (exact) or the prefix (a wildcard's, with its dot).
    let nameArgument: String?
    let namePrefix: Bool
    /// On the system bus (`BusSignal.bus == "system"`, or a system name's owner), else the session bus.
    public var system = false
    /// How the log names it (`org.freedesktop.DBus.Properties.PropertiesChanged`).
    public var what: String { nameArgument.map { "owner of \($0)\(namePrefix ? "*" : "")" } ?? interface + "." + member }

    /// The watches `manifest` asks for: none unless it declares accepted bus names; a signal
    /// whose sender is not one of its bus's names is ignored. At most 16 signals.
    public static func watches(for manifest: BundleManifest) -> [BusWatch] {
        let session = BusProxyRule.accepted(manifest.busNames ?? []), system = BusProxyRule.accepted(manifest.systemBusNames ?? [])
        guard !session.isEmpty || !system.isEmpty else { return [] }
        var out: [BusWatch] = []
        for s in (manifest.busSignals ?? []).prefix(BusProxyRule.maximumCount) {
            guard s.bus == nil || s.bus == "system", (s.bus == nil ? session : system).contains(s.sender),
                  isElementPath(s.interface), isMember(s.member), s.path.map(isObjectPath) ?? true else { continue }
            let wildcard = s.sender.hasSuffix(".*")
            // A wildcard sender has no match-rule form (signals carry the sender's unique name):
            // the interface, member and path say enough (MPRIS's path is the same for every player).
            var parts = ["type='signal'", "interface='\(s.interface)'", "member='\(s.member)'"]
            if !wildcard { parts.insert("sender='\(s.sender)'", at: 1) }
            if let p = s.path { parts.append("path='\(p)'") }
            out.append(BusWatch(rule: parts.joined(separator: ","), interface: s.interface, member: s.member, path: s.path,
                                nameArgument: nil, namePrefix: false, system: s.bus != nil))
        }
        for (names, system) in [(session, false), (system, true)] {
            for n in names {
                let wildcard = n.hasSuffix(".*")
                let name = wildcard ? String(n.dropLast(2)) : n
                let rule = "type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',member='NameOwnerChanged',path='/org/freedesktop/DBus',"
                    + (wildcard ? "arg0namespace='\(name)'" : "arg0='\(name)'")
                out.append(BusWatch(rule: rule, interface: "org.freedesktop.DBus", member: "NameOwnerChanged", path: "/org/freedesktop/DBus",
                                    nameArgument: wildcard ? name + "." : name, namePrefix: wildcard, system: system))
            }
        }
        return out
    }

    /// Whether a signal of `interface.member` at `path` (first string argument `arg0`) is this one.
    public func matches(interface: String, member: String, path: String, arg0: String?) -> Bool {
        guard interface == self.interface, member == self.member, self.path.map({ $0 == path }) ?? true else { return false }
        guard let nameArgument else { return true }
        guard let arg0 else { return false }
        return namePrefix ? arg0.hasPrefix(nameArgument) : arg0 == nameArgument
    }

    /// Dotted names of `[A-Za-z0-9_]` elements (no quote can reach a match rule).
    static func isElementPath(_ s: String) -> Bool {
        let e = s.split(separator: ".", omittingEmptySubsequences: false)
        return e.count >= 2 && s.utf8.count <= 255 && e.allSatisfy { isMember(String($0)) }
    }
    static func isMember(_ s: String) -> Bool {
        guard let f = s.utf8.first, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(f), s.utf8.count <= 255 else { return false }
        return s.utf8.allSatisfy { c in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(c) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(c)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(c) || c == UInt8(ascii: "_")
        }
    }
    static func isObjectPath(_ s: String) -> Bool {
        s == "/" || (s.hasPrefix("/") && !s.hasSuffix("/") && s.dropFirst().split(separator: "/", omittingEmptySubsequences: false).allSatisfy { !$0.isEmpty && isMember(String($0)) || $0.allSatisfy(\.isNumber) && !$0.isEmpty })
    }
}
