// The Linux system bundle: clock, CPU, memory, load and (where present) battery, read from
// /proc and /sys. Not a port: it is what a status-bar user expects next to the seed widgets.
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Reads small kernel files. Pure functions of the file system; safe from any thread.
enum ProcReader {
    /// The whole file (kernel files report size 0, so read until EOF), or nil.
    static func read(_ path: String, limit: Int = 1 << 16) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var out = [UInt8]()
        var buf = [UInt8](repeating: 0, count: 4096)
        while out.count < limit {
            let n = Glibc.read(fd, &buf, buf.count)
            if n <= 0 { break }
            out += buf[0..<n]
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Busy and total jiffies of all CPUs (first line of /proc/stat).
    static func cpuTimes() -> (busy: UInt64, total: UInt64)? {
        guard let stat = read("/proc/stat"), let line = stat.split(separator: "\n").first, line.hasPrefix("cpu ") else { return nil }
        let fields = line.split(separator: " ").dropFirst().compactMap { UInt64($0) }
        guard fields.count >= 4 else { return nil }
        let idle = fields[3] + (fields.count > 4 ? fields[4] : 0)
        let total = fields.prefix(8).reduce(0, +)
        return (total - idle, total)
    }

    static func cpuCount() -> Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }

    /// MemTotal and MemAvailable in KiB.
    static func memory() -> (total: Double, available: Double)? {
        guard let info = read("/proc/meminfo") else { return nil }
        var total: Double?, available: Double?
        for line in info.split(separator: "\n") {
            let parts = line.split(separator: " ", omittingEmptySubsequences: true)
            guard parts.count >= 2, let v = Double(parts[1]) else { continue }
            if parts[0] == "MemTotal:" { total = v }
            if parts[0] == "MemAvailable:" { available = v }
        }
        guard let total, let available, total > 0 else { return nil }
        return (total, available)
    }

    static func loadAverage() -> (Double, Double, Double)? {
        guard let s = read("/proc/loadavg") else { return nil }
        let p = s.split(separator: " ").compactMap { Double($0) }
        guard p.count >= 3 else { return nil }
        return (p[0], p[1], p[2])
    }

    /// The first battery under /sys/class/power_supply (`BAT*`), if any.
    static func batteryPath() -> String? {
        guard let dir = opendir("/sys/class/power_supply") else { return nil }
        defer { closedir(dir) }
        var names: [String] = []
        while let e = readdir(dir) {
            let name = withUnsafeBytes(of: e.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name.hasPrefix("BAT") { names.append(name) }
        }
        return names.sorted().first.map { "/sys/class/power_supply/" + $0 }
    }

    static func battery() -> (percent: Int, status: String)? {
        guard let path = batteryPath(),
              let cap = read(path + "/capacity").flatMap({ Int($0.filter(\.isNumber)) }) else { return nil }
        let status = read(path + "/status")?.filter { !$0.isNewline } ?? "Unknown"
        return (cap, status)
    }

    /// `x` with `digits` decimals (FoundationEssentials has no `String(format:)`).
    static func fixed(_ x: Double, _ digits: Int) -> String {
        guard x.isFinite else { return "n/a" }
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let n = Int((abs(x) * scale).rounded())
        let whole = n / Int(scale), frac = n % Int(scale)
        var f = String(frac)
        while f.count < digits { f = "0" + f }
        return (x < 0 && n != 0 ? "-" : "") + String(whole) + (digits > 0 ? "." + f : "")
    }

    /// `strftime` in the local time zone (honours TZ).
    static func format(_ date: Date, _ pattern: String) -> String {
        var t = time_t(date.timeIntervalSince1970)
        var parts = tm()
        localtime_r(&t, &parts)
        var buf = [CChar](repeating: 0, count: 128)
        let n = strftime(&buf, buf.count, pattern, &parts)
        return String(decoding: buf[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
