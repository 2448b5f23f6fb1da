import Logging
import WidgetHostCore
#if canImport(Glibc)
import Glibc
#endif

/// Log lines for the systemd journal: `<N>message` on stderr, with the syslog priority `N` that
/// journald reads from the prefix (`SyslogLevelPrefix=`, on by default) and no timestamp of our
/// own (the journal stamps every line). One `write(2)` per line, so lines from the loop and from
/// other threads never interleave.
///
/// Threading: a value type; `log(event:)` may be called from any thread.
struct JournalLogHandler: LogHandler {
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// syslog priorities (RFC 5424): swift-log has no `alert`/`emerg`; `trace` and `debug` are
    /// both debug (7).
    static func priority(_ level: Logger.Level) -> Int {
        switch level {
        case .trace, .debug: 7
        case .info: 6
        case .notice: 5
        case .warning: 4
        case .error: 3
        case .critical: 2
        }
    }

    static func line(level: Logger.Level, message: String, metadata: Logger.Metadata) -> String {
        let meta = metadata.isEmpty ? "" : " " + metadata.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        // A message with newlines would become several journal entries at priority 6: keep one.
        let text = (message + meta).split(separator: "\n", omittingEmptySubsequences: false).joined(separator: " ⏎ ")
        return "<\(priority(level))>\(text)\n"
    }

    func log(event: LogEvent) {
        var all = metadata
        if let m = event.metadata { all.merge(m) { _, new in new } }
        let text = Self.line(level: event.level, message: event.message.description, metadata: all)
        _ = text.withCString { write(2, $0, strlen($0)) }
    }

    /// Whether stderr goes to the journal: `$JOURNAL_STREAM` (`device:inode`) names stderr, or
    /// the process runs as a systemd unit (`$INVOCATION_ID`) with no `$JOURNAL_STREAM` at all.
    static func stderrIsJournal(_ environment: [String: String]) -> Bool {
        guard let stream = environment["JOURNAL_STREAM"] else { return environment["INVOCATION_ID"] != nil }
        let parts = stream.split(separator: ":")
        var st = stat()
        guard parts.count == 2, let dev = UInt64(parts[0]), let ino = UInt64(parts[1]), fstat(2, &st) == 0 else { return false }
        return UInt64(st.st_dev) == dev && UInt64(st.st_ino) == ino
    }
}
