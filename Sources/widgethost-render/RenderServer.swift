import FoundationEssentials
import OpenWidgetKit
import WidgetGraphics
import WidgetHostCore
import WidgetRendering
import CSandbox
#if canImport(Glibc)
import Glibc
#endif

/// `widgethost-render --serve`: the daemon's persistent render process (DESIGN §11). Reads
/// length-prefixed frames (`Framing`, as the workers do) of `PictureRenderFrame` on stdin, draws
/// each picture with `PictureRenderer`, writes its files (regions first, then PNG / SVG; each to a
/// temporary name and renamed, and only when its bytes differ from the file there) and answers
/// one `PictureRenderReply` frame per request, in order, on the stdout it had at start. fd 1 is
/// moved to stderr first, so a library's stray print cannot corrupt the protocol. Exits 0 at
/// EOF on stdin (the daemon closed the pipe or died), and is killed when the daemon dies while
/// it is busy drawing (PR_SET_PDEATHSIG). Single-threaded.
enum RenderServer {
    static func run(_ options: RenderConfinement.Options) -> Never {
        _ = widgethost_exit_with_parent(SIGKILL)
        RenderConfinement.enter(options)
        let replies = dup(1)
        guard replies >= 0, dup2(2, 1) >= 0 else { fail("cannot set up the reply pipe: \(String(cString: strerror(errno)))") }
        _ = fcntl(replies, F_SETFD, FD_CLOEXEC)
        let renderer = PictureRenderer(locale: .currentTime)
        var decoder = FrameDecoder()
        var buf = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = buf.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { exit(0) }
            let frames: [Data]
            do { frames = try decoder.append(buf[0..<n]) } catch { fail("\(error)") }
            for frame in frames {
                let reply = answer(frame, renderer: renderer)
                let bytes = (try? WireCodec.encode(reply)) ?? Data(#"{"ok":false,"error":"cannot encode the reply","written":[],"width":0,"height":0}"#.utf8)
                guard writeAll(replies, [UInt8](Framing.frame(bytes))) else { exit(0) }
            }
        }
    }

    /// Draws and writes one request.
    static func answer(_ frame: Data, renderer: PictureRenderer) -> PictureRenderReply {
        let started = monotonicSeconds()
        let request: PictureRenderRequest, view: ViewNode
        do { (request, view) = try PictureRenderFrame.decode(frame) } catch {
            return PictureRenderReply(ok: false, error: "malformed request: \(error)")
        }
        let options = PictureOptions(scale: Double(request.scale), appearance: request.dark ? .dark : .light, now: request.now,
                                     tint: request.tint.flatMap(AccentTint.style))
        var written: [String] = []
        var width = 0, height = 0
        var unmapped: Set<String> = []
        var writing = false  // drawn: what fails from here is a write
        do {
            // One layout for the PNG, the SVG and the regions.
            let placed = renderer.layout(view, family: request.family, now: options.now)
            var pictures: [(String, Picture)] = []
            for case let (format, path?) in [(PictureFormat.png, request.png), (.svg, request.svg)] {
                let p = try renderer.render(view, family: request.family, format: format, options: options, placed: placed)
                unmapped.formUnion(p.unmappedSymbols)
                width = p.pixelWidth; height = p.pixelHeight
                pictures.append((path, p))
            }
            // The widget's size budget: nothing is written when one of its files would exceed it.
            if let max = request.maxBytes, let (path, big) = pictures.first(where: { $0.1.bytes.count > max }) {
                throw SizeBudget(description: "the \(path.hasSuffix(".svg") ? "SVG" : "PNG") would be \(big.bytes.count) bytes, over the widget's size budget of \(max) (picture.maxFileKB)")
            }
            writing = true
            if let path = request.regions {
                let regions = PictureRegionsBuilder.regions(root: view, placed: placed, family: request.family, scale: options.scale)
                if try writeIfChanged([UInt8](regions.encoded()), to: path) { written.append(path) }
            }
            for (path, p) in pictures where try writeIfChanged(p.bytes, to: path) { written.append(path) }
        } catch {
            return PictureRenderReply(ok: false, error: "\(error)", written: written, writeFailed: writing ? true : nil)
        }
        return PictureRenderReply(ok: true, written: written, width: width, height: height,
                                  unmappedSymbols: unmapped.isEmpty ? nil : unmapped.sorted(),
                                  milliseconds: (monotonicSeconds() - started) * 1000)
    }

    struct SizeBudget: Error, CustomStringConvertible { let description: String }

    /// Writes `bytes` through a temporary name unless the file already holds exactly them.
    static func writeIfChanged(_ bytes: [UInt8], to path: String) throws -> Bool {
        if let old = FileIO.read(path), old.elementsEqual(bytes) { return false }
        try FileIO.writeAtomically(Data(bytes), to: path)
        return true
    }

    static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var off = 0
        while off < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + off, bytes.count - off) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return false }
            off += n
        }
        return true
    }

    static func monotonicSeconds() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
