import FoundationEssentials
import Logging

/// Writes `<dir>/<id>.txt` (the text and a newline) and `<dir>/<id>.json`, each to a temporary
/// name then renamed.
///
/// A write that fails (the disk or a small tmpfs full, the folder unwritable for a while) is not
/// dropped: the output stays dirty and is written again with exponential backoff —
/// `retryBaseSeconds`, doubling up to `retryMaxSeconds` — until it lands; a newer output of the
/// same widget replaces the one waiting. Without this, a file kept the value it had when the disk
/// filled until the widget next changed (issue 15). The first failure of a streak and the
/// recovery are logged, not every retry. Threading: loop thread only.
public final class FileOutputSink: OutputSink {
    public let output = HostConfig.Output.files
    public var directory: String { didSet { if directory != oldValue { ensuredDirectory = nil } } }
    private let logger: Logger
    /// Files written (for tests).
    public private(set) var writeCount = 0
    /// How a file is written (tests inject failures).
    var writeFile: (Data, String) throws -> Void = { data, path in try FileIO.writeAtomically(data, to: path) }
    public var retryBaseSeconds = 1.0
    public var retryMaxSeconds = 60.0
    /// Outputs whose last write failed, by widget id: written again by the retry timer.
    public private(set) var dirty: [String: WidgetOutput] = [:]
    private var failuresInARow = 0
    private var retryTimer: (any HostTimer)?

    public init(directory: String, logger: Logger) { self.directory = directory; self.logger = logger }

    /// Retries need a timer; without one (tests) a failed output waits for `retryDirty()`.
    public func attach(loop: any HostLoop) {
        retryTimer?.close()
        retryTimer = loop.makeTimer { [weak self] in self?.retryDirty() }
    }

    /// The directory last created (or found) — `mkdir -p` costs a syscall per path component,
    /// so it runs when the directory changes or a write fails, not on every update.
    private var ensuredDirectory: String?

    public func write(_ o: WidgetOutput) {
        if attempt(o) {
            dirty[o.id] = nil
        } else {
            dirty[o.id] = o
            failuresInARow = max(failuresInARow, 1)
            scheduleRetry()
        }
    }

    /// Writes every dirty output again (the retry timer).
    public func retryDirty() {
        let due = dirty
        var failed = false
        for id in due.keys.sorted() {
            if attempt(due[id]!, quiet: true) { dirty[id] = nil } else { failed = true }
        }
        if failed {
            failuresInARow += 1
            scheduleRetry()
        } else if !due.isEmpty {
            logger.notice("outputs written again after \(failuresInARow) failed attempt(s): \(due.keys.sorted().joined(separator: ", "))")
            failuresInARow = 0
        }
    }

    public func close() { retryTimer?.close(); retryTimer = nil }

    /// Arms the retry timer, `retryBaseSeconds` doubled per failed round, unless it is armed.
    private func scheduleRetry() {
        guard let retryTimer, !retryTimer.isScheduled else { return }
        retryTimer.schedule(after: min(retryMaxSeconds, retryBaseSeconds * Double(1 << min(failuresInARow - 1, 20))))
    }

    private func attempt(_ o: WidgetOutput, quiet: Bool = false) -> Bool {
        do {
            try writeFiles(o)
            return true
        } catch {
            // The directory may have been removed under us: make it again and retry once.
            ensuredDirectory = nil
            do { try writeFiles(o); return true } catch {
                if !quiet && failuresInARow == 0 { logger.error("cannot write output of \(o.id) (retried until it lands): \(error)") }
                return false
            }
        }
    }

    private func writeFiles(_ o: WidgetOutput) throws {
        if ensuredDirectory != directory {
            try FileIO.makeDirectories(directory)
            ensuredDirectory = directory
        }
        try writeFile(Data((o.text + "\n").utf8), "\(directory)/\(o.id).txt")
        var json = o.jsonData(); json.append(0x0a)
        try writeFile(json, "\(directory)/\(o.id).json")
        writeCount += 2
    }
}
