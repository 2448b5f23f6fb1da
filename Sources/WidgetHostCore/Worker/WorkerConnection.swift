import FoundationEssentials
import OpenWidgetKit

/// Why a plugin call failed: the worker's last stderr line, an exit status, a deadline, or a
/// response that did not decode. One line, fit for a log and for an output's `error` field.
public struct WorkerFailure: Error, Equatable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// A running worker process as the core sees it (DESIGN §3): requests go out in order and
/// replies come back in the same order.
///
/// Threading: loop thread only; `reply` is called on the loop thread exactly once per request —
/// with the response, or with a failure when the worker dies, misses `timeout`, or is stopped.
public protocol WorkerConnection: AnyObject {
    /// Queues `request`. It leaves for the worker at the end of the current loop iteration, with
    /// every other request of the iteration (never before: the container throttle counts on
    /// every change read in the iteration being seen by the requests it caused, `BurstThrottle`).
    func send(_ request: WireRequest, timeout: Double, reply: @escaping (Result<WireResponse, WorkerFailure>) -> Void)
    /// For a worker launched with `--settings-after-describe` (`WorkerSettings`), after its
    /// `describe` answer: the `worker` arguments it serves with (limits, the sandbox the manifest
    /// earns). Leaves after everything sent before it and before everything sent after it; has no
    /// answer. Ignored once the worker has exited or was stopped.
    func sendSettings(_ arguments: [String])
    /// Ends the worker: closes its stdin (it exits 0), and kills it if it has not exited shortly
    /// after. Pending requests fail. Idempotent.
    func stop()
}

/// Starts workers. The libuv implementation spawns `widgethost-worker worker --plugin <path>`.
/// Threading: loop thread only.
public protocol WorkerLauncher: AnyObject {
    /// - Parameter onExit: called once if the worker exits without having been stopped, with the reason.
    func launch(pluginPath: String, onExit: @escaping (WorkerFailure) -> Void) -> Result<any WorkerConnection, WorkerFailure>
    /// The same with extra `worker` arguments (limits such as `--memory-mb`).
    func launch(pluginPath: String, arguments: [String], onExit: @escaping (WorkerFailure) -> Void) -> Result<any WorkerConnection, WorkerFailure>
}

extension WorkerLauncher {
    /// Launchers that take no extra arguments (test doubles) ignore them.
    public func launch(pluginPath: String, arguments: [String], onExit: @escaping (WorkerFailure) -> Void) -> Result<any WorkerConnection, WorkerFailure> {
        launch(pluginPath: pluginPath, onExit: onExit)
    }
}
