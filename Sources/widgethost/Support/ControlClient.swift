import ArgumentParser
import FoundationEssentials
import WidgetHostCore
import WidgetHostUV
#if canImport(Glibc)
import Glibc
#endif

/// Options the control commands share: where the socket is.
struct ControlOptions: ParsableArguments {
    @Option(name: .long, help: "The control socket (default: paths.socket of the config, else $XDG_RUNTIME_DIR/widgethost/control.sock (control-<hash>.sock for a non-default paths.state), else <state>/control.sock).")
    var socket: String?

    @Option(name: .long, help: "The config file the host runs with (to find its socket).")
    var config: String?

    func socketPath() throws -> String {
        if let socket { return socket }
        switch ConfigSource(explicitPath: config).load() {
        case .success(let c): return ControlSocketPath.resolve(c.paths, environment: ProcessEnvironment.current())
        case .failure(let e): throw ValidationError("cannot read the configuration: \(e)")
        }
    }
}

/// A blocking client of the control socket: one request line out, one response line back.
enum ControlClient {
    struct Failure: Error, CustomStringConvertible { let description: String }

    static func send(_ request: ControlRequest, to path: String, timeout: Int = 30) throws -> ControlResponse {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: addr.sun_path) else { throw Failure(description: "socket path too long: \(path)") }
        withUnsafeMutableBytes(of: &addr.sun_path) { buf in for (i, b) in bytes.enumerated() { buf[i] = b } }
        let rc = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard rc == 0 else {
            throw Failure(description: "cannot connect to \(path): \(String(cString: strerror(errno))) (is `widgethost run` running?)")
        }
        var tv = timeval(tv_sec: timeout, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        let line = ControlCodec.encode(request)
        var off = 0
        while off < line.count {
            let n = line[off...].withUnsafeBytes { write(fd, $0.baseAddress!, $0.count) }
            if n < 0 { if errno == EINTR { continue }; throw Failure(description: "write: \(String(cString: strerror(errno)))") }
            off += n
        }
        var splitter = LineSplitter()
        var buf = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = buf.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 { throw Failure(description: "no answer from \(path): \(String(cString: strerror(errno)))") }
            if n == 0 { throw Failure(description: "\(path) closed the connection without an answer") }
            if let first = try splitter.feed(buf[0..<n]).first {
                return try ControlCodec.decode(ControlResponse.self, line: first)
            }
        }
    }

    /// Sends and turns a failure into exit status 1 with the message on stderr.
    static func run(_ request: ControlRequest, options: ControlOptions) throws -> ControlResponse {
        let response: ControlResponse
        do { response = try send(request, to: try options.socketPath()) } catch let e as ValidationError { throw e } catch {
            printError("widgethost: \(error)"); throw ExitCode(1)
        }
        guard response.ok else { printError("widgethost: \(response.error ?? "failed")"); throw ExitCode(1) }
        return response
    }

    static func printError(_ s: String) {
        let bytes = Array((s + "\n").utf8)
        _ = bytes.withUnsafeBytes { write(2, $0.baseAddress!, $0.count) }
    }
}
