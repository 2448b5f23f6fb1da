import CWidgetPluginABI
import FoundationEssentials

/// The bundle as the plugin's `invoke` serves it: decodes a `WireRequest`, runs the widget, and
/// encodes the `WireResponse`. Errors become `{"ok":false,"error":…}`; only a crash in author
/// code takes the worker down (the host then restarts it).
/// Threading: the worker calls `invoke` from one request thread at a time.
final class PluginRuntime: @unchecked Sendable {
    nonisolated(unsafe) static var current: PluginRuntime?
    nonisolated(unsafe) static var table: UnsafeMutablePointer<widget_plugin_v1>?

    let bundleId: String
    let records: [WidgetRecord]
    let appGroups: [String]
    let permissions: [String]
    let filesystems: [String]
    let busNames: [String]
    let busSignals: [BusSignal]
    let systemBusNames: [String]

    init(bundleId: String, records: [WidgetRecord], appGroups: [String], permissions: [String] = [], filesystems: [String] = [],
         busNames: [String] = [], systemBusNames: [String] = [], busSignals: [BusSignal] = []) {
        self.bundleId = bundleId
        self.records = records
        self.appGroups = appGroups
        self.permissions = permissions
        self.filesystems = filesystems
        self.busNames = busNames
        self.busSignals = busSignals
        self.systemBusNames = systemBusNames
    }

    var manifest: BundleManifest {
        let previews = WidgetPreview.all
        return BundleManifest(bundleId: bundleId, sdkVersion: openWidgetKitVersion, abiVersion: Int(WIDGET_PLUGIN_ABI_VERSION),
                              widgets: records.map(\.descriptor), appGroups: appGroups,
                              previews: previews.isEmpty ? nil : previews.enumerated().map { i, p in p.descriptor(id: String(i)) },
                              permissions: permissions.isEmpty ? nil : permissions,
                              filesystems: filesystems.isEmpty ? nil : filesystems,
                              busNames: busNames.isEmpty ? nil : busNames,
                              busSignals: busSignals.isEmpty ? nil : busSignals,
                              systemBusNames: systemBusNames.isEmpty ? nil : systemBusNames)
    }

    func handle(_ data: Data) -> Data {
        var response: WireResponse
        _ = ResourceMisses.take()  // what an earlier call's leftovers (a timed-out view) recorded
        do {
            let request = try WireCodec.decode(WireRequest.self, from: data)
            response = try respond(to: request)
        } catch let error as DecodingError {
            response = .failure("malformed request: \(error)")
        } catch {
            response = .failure("\(error)")
        }
        let missing = ResourceMisses.take()
        if !missing.isEmpty && response.ok { response.missingResources = missing }
        return WireJSONWriter.response(response) ?? (try? WireCodec.encode(response))
            ?? Data(#"{"error":"response could not be encoded","ok":false}"#.utf8)
    }

    func respond(to request: WireRequest) throws -> WireResponse {
        if request.op == .describe { return WireResponse(ok: true, manifest: manifest) }
        if request.op == .preview {
            let all = WidgetPreview.all
            guard let id = request.kind, let i = Int(id), all.indices.contains(i) else {
                throw IntentError("no preview \"\(request.kind ?? "")\" in \(bundleId) (\(all.count) previews)")
            }
            return WireResponse(ok: true, entries: try all[i].entries(family: request.family, displaySize: request.displaySize,
                                                                      colorScheme: request.colorScheme ?? .light,
                                                                      renderingMode: request.renderingMode.flatMap(WidgetRenderingMode.init(wireName:))))
        }
        guard let kind = request.kind else { throw IntentError("\(request.op.rawValue) needs a kind") }
        guard let record = records.first(where: { $0.kind == kind }) else {
            throw IntentError("no widget of kind \"\(kind)\" in \(bundleId) (kinds: \(records.map(\.kind).joined(separator: ", ")))")
        }
        let family = request.family ?? record.families.first ?? .systemSmall
        guard record.families.contains(family) else {
            throw IntentError("\(kind) does not support \(family) (supported: \(record.families.map(\.rawValue).joined(separator: ", ")))")
        }
        var context = TimelineProviderContext(family: family, displaySize: request.displaySize, isPreview: request.isPreview ?? false)
        context.contentMarginsDisabled = record.contentMarginsDisabled
        context.colorScheme = request.colorScheme ?? .light
        context.renderingMode = request.renderingMode.flatMap(WidgetRenderingMode.init(wireName:))
        let configuration = request.configuration ?? [:]
        switch request.op {
        case .describe:
            return WireResponse(ok: true, manifest: manifest)
        case .preview:
            throw IntentError("unreachable")
        case .placeholder:
            return WireResponse(ok: true, entries: record.runner.placeholder(context))
        case .snapshot:
            return WireResponse(ok: true, entries: try record.runner.snapshot(context, configuration: configuration))
        case .timeline:
            let (entries, policy) = try record.runner.timeline(context, configuration: configuration)
            guard !entries.isEmpty else { throw IntentError("\(kind) returned a timeline with no entries") }
            return WireResponse(ok: true, entries: entries, policy: policy)
        case .perform:
            guard let action = request.action else { throw IntentError("perform needs an action") }
            if IntentRegistry.type(named: action.intent) == nil {
                // A fresh worker has not evaluated the view that holds the control yet: evaluating
                // the widget registers the intent types its views use.
                _ = record.runner.placeholder(context)
                _ = try? record.runner.snapshot(context, configuration: configuration)
            }
            let reloads = try WidgetCenter.collectingReloads {
                try Blocking.asyncThrowing { try await IntentRegistry.perform(action) }
            }
            return WireResponse(ok: true, reloadRequests: reloads)
        }
    }
}
