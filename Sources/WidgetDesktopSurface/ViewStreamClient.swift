import FoundationEssentials
import OpenWidgetKit
import WidgetHostCore
#if canImport(Glibc)
import Glibc
#endif

/// The surface's subscription to the host's view stream (docs/architecture.md "The desktop
/// program"): connects to the control socket, sends `{"op":"watch"}` (with the desktop's
/// `colorScheme` once it is known) and turns the lines that
/// come back into `DesktopViewMessage`s. Non-blocking: the surface's loop polls `descriptor` and
/// calls `readAvailable()` when it is readable; after `.disconnected` it calls `connect()` again
/// later (the host restarting is a normal event, not an error).
///
/// Threading: the surface's one thread. Not `Sendable`.
public final class ViewStreamClient {
    /// What a read produced, in order.
    public enum Event: Equatable {
        /// One decoded line of the stream.
        case message(DesktopViewMessage)
        /// A line that is not a view message (logged by the caller; the stream goes on).
        case malformed(String)
        /// The host closed the stream or refused `watch` (the reason said); `descriptor` is -1.
        case disconnected(String)
    }

    public let socketPath: String
    /// The desktop's colour scheme said on each `watch` (`"colorScheme"`: `.dark` or `.light`;
    /// nil: none said). A new one is said by connecting again.
    public var colorScheme: ColorScheme?
    /// The connected socket, or -1 while not connected.
    public private(set) var descriptor: Int32 = -1
    private var splitter: LineSplitter
    /// Longest line accepted: a snapshot carries every desktop widget's tree (each at most
    /// `WireValidation`'s tree bytes); the host caps widgets.
    public static let maxLineBytes = 64 << 20

    public init(socketPath: String, maxLineBytes: Int = ViewStreamClient.maxLineBytes) {
        self.socketPath = socketPath
        splitter = LineSplitter(maxLine: maxLineBytes)
    }

    deinit { if descriptor >= 0 { Glibc.close(descriptor) } }

    public var isConnected: Bool { descriptor >= 0 }

    /// Connects and sends the watch request. Returns nil when connected, else why not
    /// ("no host listens at …").
    public func connect() -> String? {
        if descriptor >= 0 { return nil }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return "socket: \(String(cString: strerror(errno)))" }
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(socketPath.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: addr.sun_path) else { Glibc.close(fd); return "socket path too long: \(socketPath)" }
        withUnsafeMutableBytes(of: &addr.sun_path) { buf in for (i, b) in bytes.enumerated() { buf[i] = b } }
        let rc = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard rc == 0 else {
            let why = String(cString: strerror(errno))
            Glibc.close(fd)
            return "no host listens at \(socketPath) (\(why))"
        }
        // The request is a few bytes on a fresh socket: it fits the send buffer at once.
        let request = ControlCodec.encode(ControlRequest(op: .watch, colorScheme: colorScheme?.rawValue))
        guard FileIO.writeAll(fd, Data(request)) else {
            let why = String(cString: strerror(errno))
            Glibc.close(fd)
            return "cannot ask \(socketPath) to watch: \(why)"
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        splitter = LineSplitter(maxLine: splitter.maxLine)
        descriptor = fd
        return nil
    }

    /// Reads everything waiting on the socket (never blocks) and decodes it.
    public func readAvailable() -> [Event] {
        guard descriptor >= 0 else { return [] }
        var events: [Event] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress!, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { return events }
            if n <= 0 {
                let closed = n == 0 || errno == ECONNRESET
                events.append(.disconnected(closed ? "the host closed the view stream" : "reading the view stream: \(String(cString: strerror(errno)))"))
                close()
                return events
            }
            let lines: [[UInt8]]
            do { lines = try splitter.feed(buffer[0..<n]) } catch {
                events.append(.disconnected("a line of the view stream is longer than \(splitter.maxLine) bytes"))
                close()
                return events
            }
            for line in lines where !line.isEmpty {
                // One decoder per line (the host's rules: `DesktopViewStreamDecoder`), so that a
                // malformed line costs only itself, not the lines that came with it.
                var decoder = DesktopViewStreamDecoder(maxLine: line.count + 1)
                do {
                    events += try decoder.feed(line + [0x0A]).map(Event.message)
                } catch let refusal as DesktopViewStreamDecoder.Refused {
                    events.append(.disconnected("the host refused the view stream: \(refusal.description)"))
                    close()
                    return events
                } catch {
                    let shown = String(decoding: line.prefix(120), as: UTF8.self)
                    events.append(.malformed("\(error): \(shown)\(line.count > 120 ? "…" : "")"))
                }
            }
        }
    }

    /// Closes the connection (the loop reconnects later).
    public func close() {
        if descriptor >= 0 { Glibc.close(descriptor) }
        descriptor = -1
    }
}
