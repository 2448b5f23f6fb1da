import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// `out/.widgethost.pid`: which process writes this output directory, so readers (`follow`, the
/// desktop surface) can tell a widget that stopped changing from a host that is gone. One line,
/// `<pid> <start time in clock ticks since boot>` (field 22 of `/proc/<pid>/stat`): the start
/// time tells the host from a later process that reused its pid after a `kill -9`.
///
/// The host writes it at start (temp + rename) and removes it on a clean stop; a reader watches
/// the process itself (a pidfd), so a crash is seen at once too. Stateless; any thread.
public enum HostPresence {
    public static let fileName = ".widgethost.pid"

    public struct Record: Equatable, Sendable {
        public var pid: Int32
        public var startTime: UInt64
        public init(pid: Int32, startTime: UInt64) { self.pid = pid; self.startTime = startTime }
    }

    /// This process's record.
    public static func current() -> Record? {
        let pid = getpid()
        return startTime(of: pid).map { Record(pid: pid, startTime: $0) }
    }

    /// Writes this process's record into `outDirectory`.
    public static func publish(in outDirectory: String) throws {
        guard let r = current() else { return }
        try FileIO.writeAtomically(Data("\(r.pid) \(r.startTime)\n".utf8), to: outDirectory + "/" + fileName)
    }

    /// Removes the record from `outDirectory` if it is this process's.
    public static func withdraw(from outDirectory: String) {
        let path = outDirectory + "/" + fileName
        if read(in: outDirectory)?.pid == getpid() { unlink(path) }
    }

    /// The record in `outDirectory`, nil when absent or malformed.
    public static func read(in outDirectory: String) -> Record? {
        guard let data = FileIO.read(outDirectory + "/" + fileName, limit: 256) else { return nil }
        let parts = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isWhitespace)
        guard parts.count == 2, let pid = Int32(parts[0]), pid > 0, let start = UInt64(parts[1]) else { return nil }
        return Record(pid: pid, startTime: start)
    }

    /// Whether the process of `record` is running now (same pid, same start time).
    public static func isRunning(_ record: Record) -> Bool {
        startTime(of: record.pid) == record.startTime
    }

    /// Field 22 of `/proc/<pid>/stat`, nil when there is no such process.
    static func startTime(of pid: Int32) -> UInt64? {
        FileIO.read("/proc/\(pid)/stat", limit: 4096).flatMap(startTime(stat:))
    }

    /// Field 22 of a `/proc/<pid>/stat` line.
    static func startTime(stat data: Data) -> UInt64? {
        // The command name (field 2) is in parentheses and may contain spaces: count after it.
        // Bytes, not Characters: `String.lastIndex(of:)` walked grapheme clusters backwards.
        guard let close = data.lastIndex(of: UInt8(ascii: ")")) else { return nil }
        let fields = data[(close + 1)...].split(separator: UInt8(ascii: " "))
        // fields[0] is field 3 (state), so field 22 is fields[19].
        return fields.count > 19 ? UInt64(String(decoding: fields[19], as: UTF8.self)) : nil
    }
}
