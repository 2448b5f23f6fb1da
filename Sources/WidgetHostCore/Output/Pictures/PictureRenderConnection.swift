import FoundationEssentials

/// The render process as the core sees it (DESIGN §11): `widgethost-render --serve`, answering
/// picture requests in order over its pipes.
///
/// Threading: loop thread only; `reply` is called on the loop thread exactly once per request —
/// with the reply, or with a failure when the process dies, misses `timeout` (it is then killed),
/// or is stopped.
public protocol PictureRenderConnection: AnyObject {
    /// Sends one request frame's payload (`PictureRenderFrame.payload`).
    func send(_ payload: Data, timeout: Double, reply: @escaping (Result<PictureRenderReply, WorkerFailure>) -> Void)
    /// Ends the process (EOF on its stdin, then a kill); pending requests fail. Idempotent.
    func stop()
}

/// Starts the render process. The libuv implementation spawns `widgethost-render --serve`.
/// Threading: loop thread only.
public protocol PictureRenderLauncher: AnyObject {
    /// - Parameter onExit: called once if the process exits without having been stopped.
    func launch(onExit: @escaping (WorkerFailure) -> Void) -> Result<any PictureRenderConnection, WorkerFailure>
}
