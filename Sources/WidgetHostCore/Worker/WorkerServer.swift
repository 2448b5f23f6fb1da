import Dispatch
import FoundationEssentials
import OpenWidgetKit
#if canImport(Glibc)
import Glibc
#endif

/// The worker process's side of the pipe protocol (docs/plugin-abi.md): reads request frames
/// from `input`, answers each through the plugin, writes response frames to `output`: the answers
/// to one read in one write, unless a request may take long (`AnswerBatching`).
///
/// Threading: `serve` runs the loop on a private serial queue and returns; the caller parks the
/// main thread in `dispatchMain()` so that providers may complete on `DispatchQueue.main`.
/// End of input exits the process with status 0.
public final class WorkerServer: @unchecked Sendable {
    let plugin: LoadedPlugin
    let input: Int32
    let output: Int32
    let maxFrame: Int
    /// Largest response passed on; a larger one is replaced by an `ok:false` answer naming the size.
    public var maxResponse = Int.max

    public init(plugin: LoadedPlugin, input: Int32, output: Int32, maxFrame: Int = Framing.defaultMaxFrame) {
        self.plugin = plugin; self.input = input; self.output = output; self.maxFrame = maxFrame
    }

    public func serve() {
        DispatchQueue(label: "widgethost.worker.requests").async { self.loop() }
    }

    private func loop() {
        var decoder = FrameDecoder(maxFrame: maxFrame)
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var batching = AnswerBatching()
        var answers = Data()
        func flush() {
            guard !answers.isEmpty else { return }
            if !FileIO.writeAll(output, answers) { exit(0) }
            answers.removeAll(keepingCapacity: true)
        }
        while true {
            let n = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { exit(0) }
            let frames: [Data]
            do { frames = try decoder.append(buffer[0..<n]) } catch {
                WorkerServer.fail("request rejected: \(error)")
            }
            // The answers to one read go out in one write, unless a request may take long.
            for request in frames {
                if !batching.mayWait(for: request) { flush() }
                let started = Self.monotonicNanoseconds()
                let response = answer(request)
                batching.record(request, nanoseconds: Self.monotonicNanoseconds() &- started)
                answers.append(Framing.frame(response))
            }
            flush()
        }
    }

    /// The plugin's answer to one request frame, or an `ok:false` answer saying why there is none
    /// (an error status, a response over `maxResponse`).
    private func answer(_ request: Data) -> Data {
        let (answer, tooLarge) = plugin.invoke(request, limit: maxResponse)
        if let tooLarge {
            let r = WireResponse.failure("response of \(tooLarge) bytes exceeds the limit of \(maxResponse) bytes (maxResponseBytes)")
            return (try? WireCodec.encode(r)) ?? Data()
        }
        return answer
            ?? (try? WireCodec.encode(WireResponse.failure("plugin invoke returned an error status")))
            ?? Data()
    }

    /// Reads exactly one request frame from `input` — not a byte past it, for what follows
    /// belongs to whoever reads the pipe next — answers it on `output`, and returns true; false
    /// at the end of input or when the answer cannot be written. On the calling thread.
    public func answerOne() -> Bool {
        guard let request = Self.readFrame(input, maxFrame: maxFrame) else { return false }
        return FileIO.writeAll(output, Framing.frame(answer(request)))
    }

    /// One frame read from `fd` with exact reads: its payload, or nil at the end of input (also
    /// in the middle of a frame). A frame over `maxFrame` ends the process (`fail`).
    public static func readFrame(_ fd: Int32, maxFrame: Int) -> Data? {
        var header = [UInt8](repeating: 0, count: 4)
        guard readExactly(fd, &header) else { return nil }
        let n = Int(header[0]) << 24 | Int(header[1]) << 16 | Int(header[2]) << 8 | Int(header[3])
        if n > maxFrame { fail("request rejected: \(FrameDecoder.Oversized(length: n, limit: maxFrame))") }
        var payload = [UInt8](repeating: 0, count: n)
        guard readExactly(fd, &payload) else { return nil }
        return Data(payload)
    }

    private static func readExactly(_ fd: Int32, _ bytes: inout [UInt8]) -> Bool {
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + done, $0.count - done) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return false }
            done += n
        }
        return true
    }

    static func monotonicNanoseconds() -> UInt64 {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return UInt64(t.tv_sec) &* 1_000_000_000 &+ UInt64(t.tv_nsec)
    }

    /// Prints the worker's one failure line and exits with status 3 (a load or protocol failure).
    public static func fail(_ message: String) -> Never {
        let line = "widgethost worker: \(message)\n"
        _ = line.withCString { write(2, $0, strlen($0)) }
        exit(3)
    }
}
