import Dispatch
import FoundationEssentials
import OpenWidgetKit
#if canImport(Glibc)
import Glibc
#endif

/// The worker process's side of the pipe protocol (docs/plugin-abi.md): reads request frames
/// from `input`, answers each through the plugin, writes response frames to `output`.
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
        while true {
            let n = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { exit(0) }
            let frames: [Data]
            do { frames = try decoder.append(buffer[0..<n]) } catch {
                WorkerServer.fail("request rejected: \(error)")
            }
            for request in frames {
                let (answer, tooLarge) = plugin.invoke(request, limit: maxResponse)
                if let tooLarge {
                    let r = WireResponse.failure("response of \(tooLarge) bytes exceeds the limit of \(maxResponse) bytes (maxResponseBytes)")
                    if !FileIO.writeAll(output, Framing.frame((try? WireCodec.encode(r)) ?? Data())) { exit(0) }
                    continue
                }
                let response = answer
                    ?? (try? WireCodec.encode(WireResponse.failure("plugin invoke returned an error status")))
                    ?? Data()
                if !FileIO.writeAll(output, Framing.frame(response)) { exit(0) }
            }
        }
    }


    /// Prints the worker's one failure line and exits with status 3 (a load or protocol failure).
    public static func fail(_ message: String) -> Never {
        let line = "widgethost worker: \(message)\n"
        _ = line.withCString { write(2, $0, strlen($0)) }
        exit(3)
    }
}
