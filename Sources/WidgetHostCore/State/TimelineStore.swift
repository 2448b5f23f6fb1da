import FoundationEssentials
import Logging
import OpenWidgetKit

/// Last good timelines, one file per widget instance in `state/timelines/<id>.json`, written
/// atomically (temp + rename) each time a timeline is accepted and read at start, so after a
/// restart or `kill -9` the outputs show the last entries before any plugin answers (DESIGN §8).
/// A saved timeline is used only for the same bundle file, kind, family and parameters.
/// Loop thread only.
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
    }

    public let directory: String?
    private let logger: Logger

    /// - Parameter directory: nil keeps nothing (tests).
    public init(directory: String?, logger: Logger) {
        self.directory = directory
        self.logger = logger
        if let directory { try? FileIO.makeDirectories(directory, mode: 0o700) }
    }

    private func path(_ id: String) -> String? {
        directory.map { $0 + "/" + WidgetID.sanitize(id) + ".json" }
    }

    public func save(entries: [WireEntry], policy: WirePolicy?, for spec: InstanceSpec) {
        guard let path = path(spec.id) else { return }
        let r = Record(bundle: spec.bundleName, kind: spec.kind, family: spec.family.rawValue, parameters: spec.parameters,
                       entries: entries, policy: policy, outputs: spec.outputs.map(\.rawValue), appGroups: spec.appGroups)
        do { try FileIO.writeAtomically(try WireCodec.encode(r), to: path, mode: 0o600) }
        catch { logger.error("cannot save the timeline of \(spec.id): \(error)") }
    }

    /// Every saved timeline whose bundle file is still in `pluginDirectory`, with the instance it
    /// belonged to: shown at start, before any plugin has answered.
    public func saved(pluginDirectory: String) -> [(InstanceSpec, [WireEntry])] {
        guard let directory else { return [] }
        var out: [(InstanceSpec, [WireEntry])] = []
        for name in FileIO.list(directory) ?? [] where name.hasSuffix(".json") && !name.hasPrefix(".") {
            guard let data = FileIO.read(directory + "/" + name, limit: 64 << 20),
                  let r = try? WireCodec.decode(Record.self, from: data), !r.entries.isEmpty,
                  let family = WidgetFamily(rawValue: r.family),
                  FileIO.exists(pluginDirectory + "/" + r.bundle) else { continue }
            let spec = InstanceSpec(id: String(name.dropLast(5)), bundleName: r.bundle, kind: r.kind, family: family,
                                    parameters: r.parameters,
                                    outputs: r.outputs.map { $0.compactMap(HostConfig.Output.init(rawValue:)) } ?? HostConfig.Output.allCases,
                                    appGroups: r.appGroups ?? [])
            out.append((spec, r.entries))
        }
        return out
    }

    public func load(for spec: InstanceSpec) -> [WireEntry]? {
        guard let path = path(spec.id), let data = FileIO.read(path, limit: 64 << 20), !data.isEmpty,
              let r = try? WireCodec.decode(Record.self, from: data) else { return nil }
        guard r.bundle == spec.bundleName, r.kind == spec.kind, r.family == spec.family.rawValue,
              r.parameters == spec.parameters, !r.entries.isEmpty else { return nil }
        return r.entries
    }
}
