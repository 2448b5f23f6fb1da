import FoundationEssentials
import Logging
import OpenWidgetKit
#if canImport(Glibc)
import Glibc
#endif

/// Last good timelines, one file per widget instance in `state/timelines/<id>.json`, written
/// atomically (temp + rename) and read at start, so after a restart or `kill -9` the outputs show
/// recent entries before any plugin answers (DESIGN §8). A saved timeline is used only for the
/// same bundle file, kind, family and parameters.
///
/// Write-behind: an instance's first timeline in a run is written at once; later ones wait up to
/// `saveDelay` seconds and only the newest is written, then (and at `flush()`, on shutdown). The
/// state directory is usually on a disk filesystem where every rename over an existing file
/// flushes it (ext4's `auto_da_alloc`): writing each accepted timeline cost more than everything
/// else a busy bar does (issue 6). After `kill -9` a restart shows a timeline at most `saveDelay`
/// old, which the plugin's first answer replaces. Loop thread only.
public final class TimelineStore {
    struct Record: Codable {
        var bundle: String
        var kind: String
        var family: String
        var parameters: [String: JSONValue]
        var entries: [WireEntry]
        var policy: WirePolicy?
        var outputs: [String]?
        var appGroups: [String]?

        /// The record read directly (`WireCodec.decodeRecordFields`); nil when the reader
        /// declines or a required member is missing (then `JSONDecoder` decides).
        static func direct(_ data: Data) -> Record? {
            guard let f = WireCodec.decodeRecordFields(data), let bundle = f.strings["bundle"], let kind = f.strings["kind"],
                  let family = f.strings["family"], let parameters = f.parameters, let entries = f.entries,
                  f.strings["outputs"] == nil, f.strings["appGroups"] == nil else { return nil }
            return Record(bundle: bundle, kind: kind, family: family, parameters: parameters, entries: entries, policy: f.policy,
                          outputs: f.stringArrays["outputs"], appGroups: f.stringArrays["appGroups"])
        }

        /// As `WireCodec.encode` would write it (sorted keys), without `JSONEncoder`'s cost.
        func json() -> Data {
            var w = WireJSONWriter(capacity: 512 + entries.count * 128)
            w.beginObject()
            w.member("appGroups", appGroups)
            w.key("bundle"); w.string(bundle)
            w.key("entries"); w.value(entries)
            w.key("family"); w.string(family)
            w.key("kind"); w.string(kind)
            w.member("outputs", outputs)
            w.key("parameters"); w.value(parameters)
            if let policy { w.key("policy"); w.value(policy) }
            w.endObject()
            return w.data
        }
    }

    public let directory: String?
    private let logger: Logger
    /// Seconds a later timeline waits before it is written (0: at once).
    public var saveDelay: Double = 0
    private var timer: (any HostTimer)?
    /// Timelines accepted but not written yet, by instance id.
    private var pending: [String: Record] = [:]
    /// Instances whose timeline was written in this run.
    private var written: Set<String> = []
    /// Files written (for tests).
    public private(set) var writeCount = 0

    /// - Parameter directory: nil keeps nothing (tests).
    public init(directory: String?, logger: Logger) {
        self.directory = directory
        self.logger = logger
        if let directory { try? FileIO.makeDirectories(directory, mode: 0o700) }
    }

    private func path(_ id: String) -> String? {
        directory.map { $0 + "/" + WidgetID.sanitize(id) + ".json" }
    }

    /// Write-behind needs a timer: without one (tests) every save is written at once.
    public func attach(loop: any HostLoop, saveDelay: Double) {
        self.saveDelay = saveDelay
        timer?.close()
        timer = loop.makeTimer { [weak self] in self?.flush() }
    }

    public func save(entries: [WireEntry], policy: WirePolicy?, for spec: InstanceSpec) {
        guard directory != nil else { return }
        let r = Record(bundle: spec.bundleName, kind: spec.kind, family: spec.family.rawValue, parameters: spec.parameters,
                       entries: entries, policy: policy, outputs: spec.outputs.map(\.rawValue), appGroups: spec.appGroups)
        guard let timer, saveDelay > 0, written.contains(spec.id) else {
            pending[spec.id] = nil
            write(r, id: spec.id)
            return
        }
        pending[spec.id] = r
        if !timer.isScheduled { timer.schedule(after: saveDelay) }
    }

    /// Writes every timeline still waiting (the timer, and shutdown).
    public func flush() {
        let due = pending
        pending = [:]
        timer?.cancel()
        for id in due.keys.sorted() { write(due[id]!, id: id) }
    }

    /// Flushes and stops the timer.
    public func close() {
        flush()
        timer?.close()
        timer = nil
    }

    private func write(_ r: Record, id: String) {
        guard let path = path(id) else { return }
        do {
            try FileIO.writeAtomically(r.json(), to: path, mode: 0o600)
            written.insert(id)
            writeCount += 1
        } catch { logger.error("cannot save the timeline of \(id): \(error)") }
    }

    /// Every saved timeline whose bundle file is still in `pluginDirectory`, with the instance it
    /// belonged to: shown at start, before any plugin has answered.
    public func saved(pluginDirectory: String) -> [(InstanceSpec, [WireEntry])] {
        guard let directory else { return [] }
        var out: [(InstanceSpec, [WireEntry])] = []
        for name in FileIO.list(directory) ?? [] where name.hasSuffix(".json") && !name.hasPrefix(".") {
            guard let r = record(at: directory + "/" + name), !r.entries.isEmpty,
                  let family = WidgetFamily(rawValue: r.family),
                  FileIO.exists(pluginDirectory + "/" + r.bundle) else { continue }
            let spec = InstanceSpec(id: String(name.dropLast(5)), bundleName: r.bundle, kind: r.kind, family: family,
                                    parameters: r.parameters,
                                    outputs: r.outputs.map { $0.compactMap(HostConfig.Output.init(rawValue:)) } ?? HostConfig.Output.standard,
                                    appGroups: r.appGroups ?? [])
            out.append((spec, r.entries))
        }
        return out
    }

    /// The record saved at `path`, or nil. A file that does not decode or whose numbers do not
    /// validate (`WireValidation`: a `"nan"` date saved by an older host) is not trusted: it is
    /// renamed to `<name>.rejected` beside the others (kept for a bug report, never read again)
    /// and logged, so a poisoned state cannot take every restart down.
    private func record(at path: String) -> Record? {
        guard let data = FileIO.read(path, limit: 64 << 20) else { return nil }
        let problem: String
        do {
            let r = try Record.direct(data) ?? WireCodec.decode(Record.self, from: data)
            guard let bad = WireValidation.problem(in: r.entries, policy: r.policy) else { return r }
            problem = "invalid number: \(bad)"
        } catch { problem = "\(error)" }
        setAside(path: path, reason: problem)
        return nil
    }

    /// Renames the saved timeline of instance `id`, if any, to `<id>.json.rejected` (kept for a
    /// bug report, never read again) and logs `reason`; a write still pending for it is dropped.
    public func setAside(id: String, reason: String) {
        pending[id] = nil
        guard let path = path(id), FileIO.exists(path) else { return }
        setAside(path: path, reason: reason)
    }

    private func setAside(path: String, reason: String) {
        let aside = path + ".rejected"
        let moved = rename(path, aside) == 0
        logger.error("saved timeline \(path) set aside\(moved ? " as \(aside)" : " (cannot rename it: \(FileIO.errnoText()))"): \(reason)")
    }

    public func load(for spec: InstanceSpec) -> [WireEntry]? {
        guard let r = pending[spec.id] ?? path(spec.id).flatMap(record(at:)), r.bundle == spec.bundleName, r.kind == spec.kind, r.family == spec.family.rawValue,
              r.parameters == spec.parameters, !r.entries.isEmpty else { return nil }
        return r.entries
    }
}
