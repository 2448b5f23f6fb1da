import ArgumentParser
import FoundationEssentials
import WidgetHostCore
import WidgetHostUV
#if canImport(Glibc)
import Glibc
#endif

/// Options the control commands share: where the socket is.
struct ControlOptions: ParsableArguments {
    @Option(name: .long, help: "The control socket (default: paths.socket of the config, else $XDG_RUNTIME_DIR/widgethost/control-<hash of paths.state>.sock, else <state>/control.sock).")
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

/// The CLI side of the control socket (`ControlSocketClient`), with its errors as exit statuses.
enum ControlClient {
    struct Failure: Error, CustomStringConvertible { let description: String }

    static func send(_ request: ControlRequest, to path: String, timeout: Int = 30) throws -> ControlResponse {
        try ControlSocketClient.send(request, to: path, timeout: timeout)
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
