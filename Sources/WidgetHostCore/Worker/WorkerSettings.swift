import FoundationEssentials

/// A worker whose serving settings are decided from its own `describe` (docs/plugin-abi.md
/// "Starting a worker"). The host launches `worker --plugin P <settings for describe>
/// --settings-after-describe`; the worker forks a child *before* it applies any limit or loads
/// anything, the child applies the describe settings (the base sandbox), loads the plugin,
/// answers exactly the first request and exits; the worker then reads one frame holding the
/// serving settings (`worker` arguments: limits and the sandbox the manifest earns), applies
/// them, loads the plugin itself and serves. So `describe` runs under the base sandbox, the
/// plugin serves under its own, and one process start (exec, dynamic linker, Swift runtime:
/// about 5 ms) is saved against a second worker. Pure values.
public enum WorkerSettings {
    /// The `worker` flag (without `--`).
    public static let afterDescribeFlag = "settings-after-describe"

    /// The settings frame's payload: the arguments separated by NUL bytes (none can contain one).
    public static func encode(_ arguments: [String]) -> Data {
        var bytes = [UInt8]()
        for (i, a) in arguments.enumerated() {
            if i > 0 { bytes.append(0) }
            bytes.append(contentsOf: a.utf8)
        }
        return Data(bytes)
    }

    public static func decode(_ payload: Data) -> [String] {
        payload.isEmpty ? [] : payload.split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
    }
}
