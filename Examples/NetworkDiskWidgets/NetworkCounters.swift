import FoundationEssentials
import OpenWidgetKit
#if canImport(Glibc)
import Glibc
#endif

/// One interface's byte counters as `/proc/net/dev` gives them (since the interface came up).
struct InterfaceCounters: Equatable, Sendable {
    var name: String
    var receivedBytes: UInt64
    var sentBytes: UInt64
}

/// What kind of link an interface is, for its icon and title.
enum InterfaceKind: String, Sendable {
    case wifi, wired, loopback, other

    var symbol: String {
        switch self {
        case .wifi: "wifi"
        case .wired, .other: "network"
        case .loopback: "arrow.triangle.2.circlepath"
        }
    }

    var title: String {
        switch self {
        case .wifi: "Wi-Fi"
        case .wired: "Ethernet"
        case .loopback: "Loopback"
        case .other: "Network"
        }
    }
}

/// Reads the network's counters. The worker sees the host's interfaces only with the bundle's
/// `network-counters` declaration (docs/limits.md "Sandbox"): without it its network namespace
/// is empty and `/proc/net/dev` lists `lo` alone. Pure parsers plus file reads; any thread.
enum NetworkCounters {
    /// The interfaces of a `/proc/net/dev` text, in its order: the two header lines skipped, a
    /// line that does not parse skipped.
    static func parse(netDev text: String) -> [InterfaceCounters] {
        text.split(separator: "\n").compactMap { line in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            let name = line[..<colon].split(separator: " ").last.map(String.init) ?? ""
            let fields = line[line.index(after: colon)...].split(separator: " ", omittingEmptySubsequences: true)
            // receive: bytes packets errs drop fifo frame compressed multicast; transmit: bytes …
            guard !name.isEmpty, fields.count >= 16, let rx = UInt64(fields[0]), let tx = UInt64(fields[8]) else { return nil }
            return InterfaceCounters(name: name, receivedBytes: rx, sentBytes: tx)
        }
    }

    /// The interface of the default route in a `/proc/net/route` text (destination and mask 0,
    /// flag RTF_UP), the lowest metric first; nil when there is none.
    static func defaultRoute(route text: String) -> String? {
        var best: (name: String, metric: Int)?
        for line in text.split(separator: "\n").dropFirst() {
            let f = line.split(whereSeparator: { $0 == "\t" || $0 == " " })
            guard f.count >= 8, f[1] == "00000000", f[7] == "00000000",
                  let flags = Int(f[3], radix: 16), flags & 1 == 1, let metric = Int(f[6]) else { continue }
            if best == nil || metric < best!.metric { best = (String(f[0]), metric) }
        }
        return best?.name
    }

    /// The kind of `name` from sysfs (`root` is `/sys/class/net`).
    static func kind(of name: String, root: String = "/sys/class/net") -> InterfaceKind {
        if name == "lo" { return .loopback }
        if access(root + "/" + name + "/wireless", F_OK) == 0 || access(root + "/" + name + "/phy80211", F_OK) == 0 { return .wifi }
        guard let type = readText(root + "/" + name + "/type")?.split(whereSeparator: \.isWhitespace).first else { return .other }
        switch type {
        case "1": return .wired
        case "772": return .loopback
        default: return .other
        }
    }

    static func read() -> [InterfaceCounters] { readText("/proc/net/dev").map(parse(netDev:)) ?? [] }
    static func readDefaultRoute() -> String? { readText("/proc/net/route").flatMap(defaultRoute(route:)) }
}

/// A small file's text (procfs and sysfs files report size 0, so read until the end).
func readText(_ path: String, limit: Int = 1 << 20) -> String? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 16 << 10)
    while bytes.count < limit {
        let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
        if n < 0 && errno == EINTR { continue }
        guard n > 0 else { break }
        bytes += chunk[0..<n]
    }
    return String(decoding: bytes, as: UTF8.self)
}
