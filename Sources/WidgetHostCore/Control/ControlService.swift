import FoundationEssentials
import Logging

/// Answers control-socket requests (DESIGN §9) against a `WidgetHost`: one line in, one line
/// out. Threading: loop thread only; `reply` may be called later (a click waits for the worker).
public final class ControlService {
    private weak var host: WidgetHost?
    private let logger: Logger
    private let pid: Int32?

    public init(host: WidgetHost, pid: Int32? = nil, logger: Logger) {
        self.host = host; self.pid = pid; self.logger = logger
    }

    /// Handles one request line; `reply` gets the encoded response line.
    public func handle(line: [UInt8], reply: @escaping ([UInt8]) -> Void) {
        let request: ControlRequest
        do { request = try ControlCodec.decode(ControlRequest.self, line: line) } catch {
            reply(ControlCodec.encode(ControlResponse.failure("bad request: \(error)"))); return
        }
        handle(request) { reply(ControlCodec.encode($0)) }
    }

    public func handle(_ request: ControlRequest, reply: @escaping (ControlResponse) -> Void) {
        guard let host else { reply(.failure("the host is shutting down")); return }
        switch request.op {
        case .reload:
            let matching = host.scheduler.instances.values.filter { request.kind == nil || $0.spec.kind == request.kind }.map(\.id).sorted()
            if let kind = request.kind, matching.isEmpty {
                reply(.failure("no widget of kind \"\(kind)\" is running")); return
            }
            logger.info("control: reload \(request.kind ?? "all")")
            host.reload(kind: request.kind, reason: request.kind.map { "reloadTimelines(ofKind: \($0))" } ?? "reloadAllTimelines()")
            reply(ControlResponse(ok: true, message: "reloading \(matching.joined(separator: ", "))"))
        case .click:
            guard let id = request.id else { reply(.failure("click needs a widget id")); return }
            logger.info("control: click \(id) button \(request.button ?? 1) target \(request.target ?? "-")")
            host.click(id: id, button: request.button, target: request.target, reply: reply)
        case .status:
            reply(ControlResponse(ok: true, status: host.status(pid: pid)))
        case .entities:
            host.entityOptions.refresh(bundle: request.bundle, reply: reply)
        case .watch:
            // A subscription, not a request: the platform turns the connection into one
            // (`DesktopViewStream.subscribe`) before it gets here.
            reply(.failure("watch must be the first line of a connection of its own"))
        }
    }
}
