import FoundationEssentials
import Logging

/// A destination for widget updates. Threading: loop thread only.
public protocol OutputSink: AnyObject {
    /// Which widgets' `outputs` setting selects this sink.
    var output: HostConfig.Output { get }
    func write(_ output: WidgetOutput)
    /// Whether a widget whose `outputs` setting is `outputs` is written here (default: it lists `output`).
    func accepts(_ outputs: [HostConfig.Output]) -> Bool
    /// Writes `update` of a widget whose `outputs` setting is `selected` (default:
    /// `write(update.output)`); a sink with several formats writes the ones selected, and a sink
    /// that writes the JSON object takes `update.json`, encoded once for all sinks.
    func write(_ update: PublishedOutput, selected: [HostConfig.Output])
    /// The outputs of widget `id` are now `selected`: whatever this sink keeps of it that they no
    /// longer select goes (default: nothing kept).
    func keepOnly(_ id: String, selected: [HostConfig.Output])
}

extension OutputSink {
    public func accepts(_ outputs: [HostConfig.Output]) -> Bool { outputs.contains(output) }
    public func write(_ update: PublishedOutput, selected: [HostConfig.Output]) { write(update.output) }
    public func keepOnly(_ id: String, selected: [HostConfig.Output]) {}
}

/// One update on its way to the sinks: the output, and its JSON object encoded at most once
/// however many sinks write it (the file and `--stdout jsonl` each encoded it before, issue 16).
/// Threading: loop thread only.
public final class PublishedOutput {
    public let output: WidgetOutput
    /// `output.jsonData()`, encoded on first use.
    public private(set) lazy var json: Data = output.jsonData()
    public init(_ output: WidgetOutput) { self.output = output }
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
        let update = PublishedOutput(output)
        for s in sinks where s.accepts(outputs) { s.write(update, selected: outputs) }
        return true
    }

    /// The last output sent for `id`.
    public func current(_ id: String) -> WidgetOutput? { last[id] }

    /// Forgets `id` (after its removal was published), so a widget of that id starts afresh.
    public func forget(_ id: String) { last[id] = nil }

    /// Widget `id`'s `outputs` changed to `outputs` (a configuration reload): files they no
    /// longer select are removed, and its next output goes out even if it renders the same, so
    /// the newly selected ones are written at once.
    public func outputsChanged(_ id: String, to outputs: [HostConfig.Output]) {
        last[id] = nil
        for s in sinks { s.keepOnly(id, selected: outputs) }
    }
}

/// `--stdout jsonl`: one JSON object per update, one per line, via `emit`.
/// Threading: loop thread only.
public final class JSONLinesSink: OutputSink {
    public let output = HostConfig.Output.stdout
    private let emit: (Data) -> Void
    public init(emit: @escaping (Data) -> Void) { self.emit = emit }
    public func write(_ o: WidgetOutput) { write(PublishedOutput(o), selected: [output]) }
    public func write(_ update: PublishedOutput, selected: [HostConfig.Output]) {
        var line = update.json; line.append(0x0a)
        emit(line)
    }
}
