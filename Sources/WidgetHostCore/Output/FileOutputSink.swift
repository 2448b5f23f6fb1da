import FoundationEssentials
import Logging

/// Writes `<dir>/<id>.txt` (the text and a newline) and `<dir>/<id>.json` (the object and a
/// newline), each to a temporary name then renamed, relative to the directory held open
/// (`OutputDirectory`: `openat`, one `writev`, `close`, `renameat` per file). Which of the two
/// a widget gets is its `outputs` selection: `files` both, `txt` or `json` one (a bar that
/// reads one file pays for one write).
///
/// A write that fails (the disk or a small tmpfs full, the folder unwritable for a while) is not
/// dropped: the output stays dirty and is written again with exponential backoff —
/// `retryBaseSeconds`, doubling up to `retryMaxSeconds` — until it lands; a newer output of the
/// same widget replaces the one waiting. Without this, a file kept the value it had when the disk
/// filled until the widget next changed (issue 15). The first failure of a streak and the
/// recovery are logged, not every retry. A failed write reopens the directory (creating it again
/// if it was removed) and tries once more before it counts as failed. Threading: loop thread only.
public final class FileOutputSink: OutputSink {
    public let output = HostConfig.Output.files
    public var directory: String { didSet { if directory != oldValue { opened = nil } } }
    private let logger: Logger
    /// Files written (for tests).
    public private(set) var writeCount = 0
    /// Runs before each file is written, with its name in the directory (tests inject failures
    /// by throwing).
    var beforeEachFile: (String) throws -> Void = { _ in }
    public var retryBaseSeconds = 1.0
    public var retryMaxSeconds = 60.0
    /// Outputs whose last write failed, by widget id (their formats in `dirtyFormats`): written
    /// again by the retry timer.
    public private(set) var dirty: [String: WidgetOutput] = [:]
    private var dirtyFormats: [String: FileFormats] = [:]
    private var failuresInARow = 0
    private var retryTimer: (any HostTimer)?
    /// The directory held open (nil: opened, and created, at the next write).
    private var opened: OutputDirectory?

    public init(directory: String, logger: Logger) { self.directory = directory; self.logger = logger }

    /// Retries need a timer; without one (tests) a failed output waits for `retryDirty()`.
    public func attach(loop: any HostLoop) {
        retryTimer?.close()
        retryTimer = loop.makeTimer { [weak self] in self?.retryDirty() }
    }

    public func accepts(_ outputs: [HostConfig.Output]) -> Bool { !FileFormats(outputs).isEmpty }

    public func write(_ o: WidgetOutput) { write(PublishedOutput(o), selected: [.files]) }

    public func write(_ update: PublishedOutput, selected: [HostConfig.Output]) {
        let o = update.output, formats = FileFormats(selected)
        if attempt(update, formats) {
            dirty[o.id] = nil; dirtyFormats[o.id] = nil
        } else {
            dirty[o.id] = o; dirtyFormats[o.id] = formats
            failuresInARow = max(failuresInARow, 1)
            scheduleRetry()
        }
    }

    /// Removes the files of `id` (both formats; absent ones are no error). Creates nothing.
    public func remove(_ id: String) {
        dirty[id] = nil; dirtyFormats[id] = nil  // a pending retry must not bring them back
        for name in [id + ".json", id + ".txt"] {
            if let opened { opened.remove(name) } else { FileIO.remove(directory + "/" + name) }
        }
    }

    /// Removes the files of `id` that `selected` no longer asks for (`files` → `txt` drops the
    /// `.json`), and their part of a pending retry.
    public func keepOnly(_ id: String, selected: [HostConfig.Output]) {
        let keep = FileFormats(selected)
        if let pending = dirtyFormats[id] {
            let left = pending.intersection(keep)
            if left.isEmpty { dirty[id] = nil; dirtyFormats[id] = nil } else { dirtyFormats[id] = left }
        }
        for (format, name) in [(FileFormats.txt, id + ".txt"), (.json, id + ".json")] where !keep.contains(format) {
            if let opened { opened.remove(name) } else { FileIO.remove(directory + "/" + name) }
        }
    }

    /// Writes every dirty output again (the retry timer).
    public func retryDirty() {
        let due = dirty
        var failed = false
        for id in due.keys.sorted() {
            if attempt(PublishedOutput(due[id]!), dirtyFormats[id] ?? .both, quiet: true) { dirty[id] = nil; dirtyFormats[id] = nil } else { failed = true }
        }
        if failed {
            failuresInARow += 1
            scheduleRetry()
        } else if !due.isEmpty {
            logger.notice("outputs written again after \(failuresInARow) failed attempt(s): \(due.keys.sorted().joined(separator: ", "))")
            failuresInARow = 0
        }
    }

    public func close() { retryTimer?.close(); retryTimer = nil; opened = nil }

    /// Arms the retry timer, `retryBaseSeconds` doubled per failed round, unless it is armed.
    private func scheduleRetry() {
        guard let retryTimer, !retryTimer.isScheduled else { return }
        retryTimer.schedule(after: min(retryMaxSeconds, retryBaseSeconds * Double(1 << min(failuresInARow - 1, 20))))
    }

    private func attempt(_ update: PublishedOutput, _ formats: FileFormats, quiet: Bool = false) -> Bool {
        do {
            try writeFiles(update, formats)
            return true
        } catch {
            // The directory may have been removed or replaced under us: open (and make) it again
            // and retry once.
            opened = nil
            do { try writeFiles(update, formats); return true } catch {
                if !quiet && failuresInARow == 0 { logger.error("cannot write output of \(update.output.id) (retried until it lands): \(error)") }
                return false
            }
        }
    }

    private func writeFiles(_ update: PublishedOutput, _ formats: FileFormats) throws {
        let o = update.output
        let dir: OutputDirectory
        if let opened { dir = opened } else { dir = try OutputDirectory(path: directory); opened = dir }
        if formats.contains(.txt) {
            let name = o.id + ".txt"
            try beforeEachFile(name)
            try dir.replace(name, with: o.text, newline: true)
            writeCount += 1
        }
        if formats.contains(.json) {
            let name = o.id + ".json"
            try beforeEachFile(name)
            try dir.replace(name, with: update.json, newline: true)
            writeCount += 1
        }
    }
}

/// The files a widget's `outputs` selection asks for: `files` is both, `txt` and `json` one each.
struct FileFormats: OptionSet {
    let rawValue: UInt8
    static let txt = FileFormats(rawValue: 1)
    static let json = FileFormats(rawValue: 2)
    static let both: FileFormats = [.txt, .json]

    init(rawValue: UInt8) { self.rawValue = rawValue }

    init(_ outputs: [HostConfig.Output]) {
        var f: FileFormats = []
        for o in outputs {
            switch o {
            case .files: f.formUnion(.both)
            case .txt: f.insert(.txt)
            case .json: f.insert(.json)
            default: break
            }
        }
        self = f
    }
}
