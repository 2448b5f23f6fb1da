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

/// What the render process is confined to (docs/limits.md "Pictures"): it may write only the
/// out directory (Landlock, as a worker's sandbox: `WorkerSandbox`) and allocate at most
/// `memoryMB` (RLIMIT_DATA, as a worker's cap), so a tree that needs more fails to draw
/// instead of growing the process. Value type.
public struct PictureRenderLimits: Equatable, Sendable {
    /// The one directory it may write (its files' temporary names and renames).
    public var outDirectory: String
    /// Its memory cap in MiB.
    public var memoryMB: Int
    /// The cap when nothing else is said: a plain picture at scale 3 peaks at about 30 MB; a
    /// hostile tree of shadows reached 169 MB without a cap (docs/limits.md).
    public static let defaultMemoryMB = 256

    public init(outDirectory: String, memoryMB: Int = PictureRenderLimits.defaultMemoryMB) {
        self.outDirectory = outDirectory; self.memoryMB = memoryMB
    }
}

/// Starts the render process. The libuv implementation spawns `widgethost-render --serve`.
/// Threading: loop thread only.
public protocol PictureRenderLauncher: AnyObject {
    /// - Parameter limits: what the process is confined to.
    /// - Parameter onExit: called once if the process exits without having been stopped.
    func launch(_ limits: PictureRenderLimits, onExit: @escaping (WorkerFailure) -> Void) -> Result<any PictureRenderConnection, WorkerFailure>
}
