import FoundationEssentials
import Glibc

/// The UTC offset of an IANA time zone at an instant, read from the system's compiled tz
/// database (`/usr/share/zoneinfo/<Area/City>`, TZif version 2 or later: its 64-bit section).
/// FoundationEssentials has no time zones other than fixed offsets without ICU, and `TZ` +
/// `localtime_r` would change the process's zone under other threads, so the bundle reads the
/// file itself. The worker's sandbox shows `/usr` read-only (docs/limits.md "Sandbox").
///
/// Contract: `offset(at:)` is the offset in force at the instant — the last transition at or
/// before it, else the zone's first standard type. Debian's tzdata is built "fat" (transitions
/// written out to 2037); after the last transition the last type holds (the footer's POSIX rule
/// is not read). A value type; safe from any thread.
struct ZoneInfo: Sendable {
    let name: String
    /// Transition instants (seconds since 1970, ascending) and the offset from each on.
    let transitions: [Int64]
    let offsets: [Int32]
    /// The offset before the first transition.
    let initial: Int32

    static let directory = "/usr/share/zoneinfo"

    /// The zone called `name` (`Europe/Paris`), nil when the file is missing or not TZif.
    init?(named name: String) {
        guard !name.contains(".."), let bytes = Self.read(Self.directory + "/" + name) else { return nil }
        self.init(name: name, tzif: bytes)
    }

    init?(name: String, tzif b: [UInt8]) {
        self.name = name
        func u32(_ i: Int) -> Int { Int(b[i]) << 24 | Int(b[i + 1]) << 16 | Int(b[i + 2]) << 8 | Int(b[i + 3]) }
        func header(_ at: Int) -> (isut: Int, isstd: Int, leap: Int, time: Int, type: Int, chars: Int)? {
            guard b.count >= at + 44, b[at] == 0x54, b[at + 1] == 0x5A, b[at + 2] == 0x69, b[at + 3] == 0x66 else { return nil }
            return (u32(at + 20), u32(at + 24), u32(at + 28), u32(at + 32), u32(at + 36), u32(at + 40))
        }
        guard let v1 = header(0), b[4] >= 0x32 else { return nil }  // version '2' or later
        // Skip the 32-bit block to the second header.
        let v1Size = v1.time * 5 + v1.type * 6 + v1.chars + v1.leap * 8 + v1.isstd + v1.isut
        let at = 44 + v1Size
        guard let h = header(at) else { return nil }
        let times = at + 44, indices = times + h.time * 8, types = indices + h.time
        guard h.type > 0, b.count >= types + h.type * 6 else { return nil }
        func i64(_ i: Int) -> Int64 { (0..<8).reduce(Int64(0)) { $0 << 8 | Int64(b[i + $1]) } }
        func offset(ofType t: Int) -> Int32 { Int32(truncatingIfNeeded: u32(types + t * 6)) }
        var ts: [Int64] = [], os: [Int32] = []
        for i in 0..<h.time {
            let t = Int(b[indices + i])
            guard t < h.type else { return nil }
            ts.append(i64(times + i * 8)); os.append(offset(ofType: t))
        }
        transitions = ts; offsets = os
        // RFC 8536: the first type is the one in force before the first transition.
        initial = offset(ofType: 0)
    }

    /// Seconds east of UTC at `date`.
    func offset(at date: Date) -> Int {
        let t = Int64(date.timeIntervalSince1970.rounded(.down))
        var lo = 0, hi = transitions.count  // the first transition after t
        while lo < hi {
            let mid = (lo + hi) / 2
            if transitions[mid] <= t { lo = mid + 1 } else { hi = mid }
        }
        return Int(lo == 0 ? initial : offsets[lo - 1])
    }

    /// The offset of the process's own time zone (`TZ` honoured, else `/etc/localtime`) at `date`.
    static func localOffset(at date: Date) -> Int {
        var t = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        tzset()
        localtime_r(&t, &parts)
        return Int(parts.tm_gmtoff)
    }

    private static func read(_ path: String) -> [UInt8]? {
        guard let f = fopen(path, "rb") else { return nil }
        defer { fclose(f) }
        var out: [UInt8] = [], chunk = [UInt8](repeating: 0, count: 4096)
        while out.count < 1 << 20 {
            let n = fread(&chunk, 1, chunk.count, f)
            if n <= 0 { break }
            out += chunk[0..<n]
        }
        return out
    }
}
