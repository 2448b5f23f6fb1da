import FoundationEssentials
import Logging
#if canImport(Glibc)
import Glibc
#endif

/// What the scheduler asks around each entry it draws in the host process (the text renderers:
/// a trap there ends the host). Loop thread only.
public protocol DrawingGuard: AnyObject {
    /// Instance `id`'s entry is about to be drawn; `didDraw` follows when it was.
    func willDraw(_ id: String)
    func didDraw()
    /// Why instance `id` starts without its saved timeline, or is not drawn: the previous host
    /// stopped while drawing it. nil for every other instance.
    func notice(for id: String) -> String?
    /// True when instance `id` is not drawn in this run (its `notice` is shown instead).
    func refuses(_ id: String) -> Bool
}

/// Keeps a drawing that takes the host down from taking every restart down too (issue 23: a
/// saved timeline whose grid trapped the text renderer was drawn again at each start, a crash
/// loop under systemd).
///
/// Before each entry is drawn, the instance's id is written at the start of `state/drawing`
/// (one `pwrite` on a descriptor kept open), and the line is blanked after: a host that dies
/// while drawing leaves the id there (the kernel keeps the write when the process dies; only a
/// power loss could lose it, and then nothing crashed). At the next start:
///
/// - the first time an instance is found there, its saved timeline is set aside
///   (`<id>.json.rejected`) and it starts as if it had none, its `error` saying why, until its
///   plugin answers;
/// - the second start in a row that finds it (the plugin's fresh answer took the host down
///   again), it is not drawn at all in this run: its `error` says why, the other widgets go on.
///   A run that ends without such a crash clears the count (`state/drawing-crashes`).
///
/// Loop thread only.
public final class DrawingJournal: DrawingGuard {
    /// The instance the previous host was drawing when it stopped, and in how many starts in a
    /// row one was found so (nil: it stopped between drawings, or never ran).
    public let interrupted: (id: String, times: Int)?
    private let fd: Int32
    private let logger: Logger

    /// - Parameter directory: the state directory; nil keeps no journal (tests, `--no-state`).
    public init(directory: String?, logger: Logger) {
        self.logger = logger
        guard let directory else { fd = -1; interrupted = nil; return }
        let path = directory + "/drawing", counts = directory + "/drawing-crashes"
        let before = FileIO.read(path, limit: 4096).flatMap { Self.firstLine($0) }
        if let id = before {
            let earlier = FileIO.read(counts, limit: 4096).flatMap { Self.firstLine($0) }
            let times = earlier.flatMap { line -> Int? in
                guard let space = line.lastIndex(of: " "), line[..<space] == id else { return nil }
                return Int(line[line.index(after: space)...])
            }.map { $0 + 1 } ?? 1
            interrupted = (id, times)
            do { try FileIO.writeAtomically(Data("\(id) \(times)\n".utf8), to: counts, mode: 0o600) }
            catch { logger.error("cannot write \(counts): \(error)") }
            logger.error("the last host stopped while drawing \(id) (\(times == 1 ? "once" : "\(times) starts in a row"))")
        } else {
            interrupted = nil
            FileIO.remove(counts)
        }
        fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o600)
        if fd < 0 { logger.error("cannot open \(path): \(FileIO.errnoText()); a drawing that crashes the host is not remembered") }
    }

    deinit { if fd >= 0 { close(fd) } }

    /// The first line of `data`, nil when empty.
    private static func firstLine(_ data: Data) -> String? {
        let line = String(decoding: data.prefix { $0 != UInt8(ascii: "\n") }, as: UTF8.self)
        return line.isEmpty ? nil : line
    }

    public func willDraw(_ id: String) {
        guard fd >= 0 else { return }
        let line = Array((id.contains("\n") ? id.replacing("\n", with: " ") : id).utf8) + [UInt8(ascii: "\n")]
        _ = line.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
    }

    public func didDraw() {
        guard fd >= 0 else { return }
        var newline = UInt8(ascii: "\n")
        _ = pwrite(fd, &newline, 1, 0)
    }

    public func notice(for id: String) -> String? {
        guard let interrupted, interrupted.id == id else { return nil }
        if interrupted.times >= 2 {
            return "not drawn: the host stopped while drawing this widget at the last \(interrupted.times) starts; "
                + "restart the host to draw it again"
        }
        return "the host stopped while drawing this widget; its saved timeline was set aside"
    }

    public func refuses(_ id: String) -> Bool {
        guard let interrupted else { return false }
        return interrupted.id == id && interrupted.times >= 2
    }
}
