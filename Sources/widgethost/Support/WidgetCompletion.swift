import ArgumentParser
import FoundationEssentials
import WidgetHostCore

/// Shell completion of widget ids and kinds from the running daemon (`status` over the control
/// socket, one second at most), else from the output files in `paths.out`. Called by the
/// completion scripts swift-argument-parser generates (`widgethost ---completion …`), with the
/// words typed so far, so `--config` and `--socket` on the command line are honoured.
/// Never throws: a completion that cannot be computed is empty.
enum WidgetCompletion {
    /// Widget instance ids (`follow`, `click`).
    @Sendable static func ids(_ words: [String], _ index: Int, _ prefix: String) -> [String] {
        if let s = status(words) { return s.widgets.map(\.id).sorted() }
        guard let out = config(words)?.paths.out, let files = FileIO.list(out) else { return [] }
        return files.filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }.map { String($0.dropLast(5)) }.sorted()
    }

    /// Widget kinds (`reload`).
    @Sendable static func kinds(_ words: [String], _ index: Int, _ prefix: String) -> [String] {
        guard let s = status(words) else { return [] }
        return Array(Set(s.bundles.flatMap(\.kinds))).sorted()
    }

    private static func value(of option: String, in words: [String]) -> String? {
        for (i, w) in words.enumerated() {
            if w == "--" + option, i + 1 < words.count { return words[i + 1] }
            if w.hasPrefix("--\(option)=") { return String(w.dropFirst(option.count + 3)) }
        }
        return nil
    }

    private static func config(_ words: [String]) -> HostConfig? {
        try? ConfigSource(explicitPath: value(of: "config", in: words)).load().get()
    }

    private static func status(_ words: [String]) -> HostStatus? {
        let socket = value(of: "socket", in: words)
            ?? config(words).map { ControlSocketPath.resolve($0.paths, environment: ProcessEnvironment.current()) }
        guard let socket else { return nil }
        return try? ControlClient.send(ControlRequest(op: .status), to: socket, timeout: 1).status
    }
}
