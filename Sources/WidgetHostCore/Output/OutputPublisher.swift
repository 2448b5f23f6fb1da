import FoundationEssentials
import Logging

/// A destination for widget updates. Threading: loop thread only.
public protocol OutputSink: AnyObject {
    /// Which widgets' `outputs` setting selects this sink.
    var output: HostConfig.Output { get }
    func write(_ output: WidgetOutput)
    /// Whether a widget whose `outputs` setting is `outputs` is written here (default: it lists `output`).
    func accepts(_ outputs: [HostConfig.Output]) -> Bool
    /// Writes `output` of a widget whose `outputs` setting is `selected` (default: `write(output)`);
    /// a sink with several formats writes the ones selected.
    func write(_ output: WidgetOutput, selected: [HostConfig.Output])
}

extension OutputSink {
    public func accepts(_ outputs: [HostConfig.Output]) -> Bool { outputs.contains(output) }
    public func write(_ output: WidgetOutput, selected: [HostConfig.Output]) { write(output) }
}

/// Fans widget updates out to the sinks, but only when the rendering changed (DESIGN §8):
/// an entry swap that shows the same characters wakes no reader. Threading: loop thread only.
public final class OutputPublisher {
    public var sinks: [any OutputSink]
    private var last: [String: WidgetOutput] = [:]
    /// Updates that reached the sinks (for tests and status).
    public private(set) var publishedCount = 0

    public init(sinks: [any OutputSink]) { self.sinks = sinks }

    /// Sends `output` to the sinks `outputs` selects, unless it renders the same as the last one.
    /// Returns whether it was sent.
    @discardableResult
    public func publish(_ output: WidgetOutput, to outputs: [HostConfig.Output]) -> Bool {
        if let prev = last[output.id], prev.sameRendering(as: output) { return false }
        last[output.id] = output
        publishedCount += 1
        for s in sinks where s.accepts(outputs) { s.write(output, selected: outputs) }
        return true
    }

    /// The last output sent for `id`.
    public func current(_ id: String) -> WidgetOutput? { last[id] }

    /// Forgets `id` (after its removal was published), so a widget of that id starts afresh.
    public func forget(_ id: String) { last[id] = nil }
}

/// `--stdout jsonl`: one JSON object per update, one per line, via `emit`.
/// Threading: loop thread only.
public final class JSONLinesSink: OutputSink {
    public let output = HostConfig.Output.stdout
    private let emit: (Data) -> Void
    public init(emit: @escaping (Data) -> Void) { self.emit = emit }
    public func write(_ o: WidgetOutput) {
        var line = o.jsonData(); line.append(0x0a)
        emit(line)
    }
}
