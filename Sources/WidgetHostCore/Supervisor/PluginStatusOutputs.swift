import FoundationEssentials
import Logging

/// A plugin file that cannot be loaded has no widget to carry its error, so it gets an output of
/// its own: `out/plugin-<name>.json` (and a `--stdout jsonl` line) with `class: ["error"]`,
/// `stale: true` and the reason in `error`, e.g. for a truncated `.so` or a wrong ABI version.
/// The output is removed once that file loads or goes away. Loop thread only.
public final class PluginStatusOutputs {
    private let publisher: OutputPublisher
    private let fileSink: FileOutputSink
    private var shown: Set<String> = []

    public init(publisher: OutputPublisher, fileSink: FileOutputSink) {
        self.publisher = publisher; self.fileSink = fileSink
    }

    public static func id(_ fileName: String) -> String {
        WidgetID.sanitize("plugin-" + (fileName.hasSuffix(".so") ? String(fileName.dropLast(3)) : fileName))
    }

    public func handle(_ event: RegistryEvent) {
        switch event {
        case .rejected(let file, let reason, let kept):
            let id = Self.id(file.name)
            shown.insert(id)
            let text = kept == nil ? "plugin rejected: \(file.name): \(reason)"
                                   : "replacement rejected, previous version keeps serving: \(file.name): \(reason)"
            publisher.publish(WidgetOutput(id: id, text: "", class: ["error"], kind: "", family: "", stale: true, error: text),
                              to: HostConfig.Output.standard)
        case .loaded(let b), .replaced(_, let b), .removed(let b):
            clear(Self.id(b.name))
        }
    }

    /// Forgets files no longer in the folder.
    public func retain(fileNames: Set<String>) {
        let keep = Set(fileNames.map(Self.id))
        for id in shown where !keep.contains(id) { clear(id) }
    }

    private func clear(_ id: String) {
        guard shown.remove(id) != nil else { return }
        publisher.forget(id)
        fileSink.remove(id)
    }
}
