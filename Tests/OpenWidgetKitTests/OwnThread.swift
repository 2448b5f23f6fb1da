#if canImport(Glibc)
import Glibc
#endif

private final class ThreadJob: @unchecked Sendable {
    let run: () -> Void
    init(_ run: @escaping () -> Void) { self.run = run }
}

/// Runs `body` on a new OS thread and waits for it without blocking a Swift-concurrency thread.
///
/// The SDK's runtime blocks its caller until a provider or intent answers (in a worker it runs
/// on a plain request thread). Called from a test's cooperative thread, that block could starve
/// the pool the answer needs, so tests that call `PluginRuntime` go through here.
func onOwnThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
        let job = ThreadJob { continuation.resume(with: Result { try body() }) }
        var thread = pthread_t()
        let rc = pthread_create(&thread, nil, { raw in
            let job = Unmanaged<ThreadJob>.fromOpaque(raw!).takeRetainedValue()
            job.run()
            return nil
        }, Unmanaged.passRetained(job).toOpaque())
        if rc == 0 { pthread_detach(thread) } else { job.run() }
    }
}
