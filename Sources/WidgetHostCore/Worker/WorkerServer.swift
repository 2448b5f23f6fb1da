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
                let (answer, tooLarge) = plugin.invoke(request, limit: maxResponse)
                batching.record(request, nanoseconds: Self.monotonicNanoseconds() &- started)
                if let tooLarge {
                    let r = WireResponse.failure("response of \(tooLarge) bytes exceeds the limit of \(maxResponse) bytes (maxResponseBytes)")
                    answers.append(Framing.frame((try? WireCodec.encode(r)) ?? Data()))
                    continue
                }
                let response = answer
                    ?? (try? WireCodec.encode(WireResponse.failure("plugin invoke returned an error status")))
                    ?? Data()
                answers.append(Framing.frame(response))
            }
            flush()
        }
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
