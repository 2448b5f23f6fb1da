import Dispatch

/// Bridges a provider's completion handler or async function to the worker's synchronous
/// request thread: the caller blocks until the result arrives. The host enforces the deadline
/// (it kills a worker that never answers), so there is no timeout here.
/// Must not be called on the main thread: completions may be delivered on `DispatchQueue.main`.
enum Blocking {
    final class Box<T>: @unchecked Sendable {
        private let lock = DispatchSemaphore(value: 1)
        private var value: T?
        private let done = DispatchSemaphore(value: 0)
        /// Stores the first value delivered; later deliveries are ignored.
        func deliver(_ v: T) {
            lock.wait()
            let first = value == nil
            if first { value = v }
            lock.signal()
            if first { done.signal() }
        }
        func wait() -> T {
            done.wait()
            lock.wait(); defer { lock.signal() }
            return value!
        }
    }

    static func completion<T>(_ start: (@escaping @Sendable (T) -> Void) -> Void) -> T {
        let box = Box<T>()
        start { box.deliver($0) }
        return box.wait()
    }

    static func async<T>(_ operation: @escaping () async -> T) -> T {
        let box = Box<T>()
        nonisolated(unsafe) let op = operation
        Task.detached { box.deliver(await op()) }
        return box.wait()
    }

    static func asyncThrowing<T>(_ operation: @escaping () async throws -> T) throws -> T {
        let box = Box<Result<T, any Error>>()
        nonisolated(unsafe) let op = operation
        Task.detached {
            do { box.deliver(.success(try await op())) } catch { box.deliver(.failure(error)) }
        }
        return try box.wait().get()
    }
}
