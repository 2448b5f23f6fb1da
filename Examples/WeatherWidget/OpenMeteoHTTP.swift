// The bundle's one HTTP unit: a GET through FoundationNetworking's URLSession (libcurl below),
// as a third-party widget author writes it. The rest of the bundle imports FoundationEssentials
// only; this file is why the worker loads full Foundation.
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Why a fetch gave no usable body: the message is what the log line and the stale state say.
struct FetchFailure: Error, CustomStringConvertible {
    let description: String
}

/// GETs one URL and returns its body when the status is 200. Threading: callable from any
/// thread or task; each call uses its own ephemeral session (no cookies, no cache on disk).
/// Contract: returns within `timeout` seconds (the host's request deadline is 10 s), throws
/// `FetchFailure` for a transport error or any status other than 200.
enum OpenMeteoHTTP {
    static func get(_ url: URL, timeout: TimeInterval = 6) async throws -> Data {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = timeout
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        let session = URLSession(configuration: configuration)
        defer { session.finishTasksAndInvalidate() }
        let result: Result<Data, FetchFailure> = await withCheckedContinuation { continuation in
            let task = session.dataTask(with: url) { data, response, error in
                if let error {
                    // libcurl's messages mostly name the host already ("Could not resolve host: …").
                    let text = error.localizedDescription, host = url.host ?? "server"
                    continuation.resume(returning: .failure(FetchFailure(description: text.contains(host) ? text : "\(host): \(text)")))
                    return
                }
                let status = (response as? HTTPURLResponse)?.statusCode ?? 0
                guard status == 200, let data else {
                    continuation.resume(returning: .failure(FetchFailure(description: "\(url.host ?? "server"): HTTP status \(status)")))
                    return
                }
                continuation.resume(returning: .success(data))
            }
            task.resume()
        }
        return try result.get()
    }
}
