import FoundationEssentials
import OpenWidgetKit

/// What one widget instance is: which bundle's kind, in which family, with which configuration,
/// and where its updates go. Value type; two equal specs are the same instance.
public struct InstanceSpec: Equatable, Sendable {
    public var id: String
    public var bundleName: String
    public var kind: String
    public var family: WidgetFamily
    public var parameters: [String: JSONValue]
    public var outputs: [HostConfig.Output]
    public var appGroups: [String]
    /// The appearance its views are evaluated in (its `picture.colorScheme`). An instance has one
    /// timeline, so its text outputs see the same `colorScheme` its pictures are drawn in.
    public var colorScheme: ColorScheme
    /// The rendering mode its views are evaluated in (`PictureSettings.requestedRenderingMode`
    /// of its `picture`; nil: the family's own), for the same reason.
    public var renderingMode: String?
    public init(id: String, bundleName: String, kind: String, family: WidgetFamily,
                parameters: [String: JSONValue] = [:], outputs: [HostConfig.Output] = HostConfig.Output.standard, appGroups: [String] = [],
                colorScheme: ColorScheme = .light, renderingMode: String? = nil) {
        self.id = id; self.bundleName = bundleName; self.kind = kind; self.family = family
        self.parameters = parameters; self.outputs = outputs; self.appGroups = appGroups; self.colorScheme = colorScheme
        self.renderingMode = renderingMode
    }
}

/// Derives the widget instances from the config and the loaded bundles. Pure; any thread.
///
/// With a `widgets` list: one instance per entry whose kind a loaded bundle declares (entries
/// naming a missing kind are reported, not fatal: the bundle may arrive later), and the kinds
/// no entry places are listed (`UnplacedKind`). Without one:
/// every kind of every bundle in each family it supports (limited by `defaults.families`), ids
/// `<kind>-<family>` sanitized, a `-2`, `-3`… suffix when two bundles declare the same kind.
public enum WidgetInstancePlanner {
    public struct Plan: Equatable {
        public var instances: [InstanceSpec]
        /// Config entries that could not be placed, with the reason (e.g. kind not loaded).
        public var unresolved: [String]
        /// With a `widgets` list: the kinds of loaded bundles that no entry places (by bundle
        /// name, then in the order the bundle declares them); empty without a list, which
        /// places every kind.
        public var unplaced: [UnplacedKind] = []
    }

    /// `desktopColorScheme`: the scheme the desktop surface reported, for the widgets whose
    /// `picture.colorScheme` is `"system"`.
    public static func plan(config: HostConfig, bundles: [BundleManifest], bundleNames: [String],
                            desktopColorScheme: ColorScheme = .light) -> Plan {
        precondition(bundles.count == bundleNames.count)
        let pairs = zip(bundleNames, bundles).sorted { $0.0 < $1.0 }
        var out: [InstanceSpec] = []
        var unresolved: [String] = []
        if let widgets = config.widgets {
            for w in widgets {
                let candidates = pairs.filter { name, m in
                    m.widgets.contains { $0.kind == w.kind } && (w.bundle == nil || w.bundle == m.bundleId || w.bundle == name)
                }
                guard let (name, manifest) = candidates.first,
                      let desc = manifest.widgets.first(where: { $0.kind == w.kind }) else {
                    unresolved.append("widget \(w.id): no loaded bundle declares kind \"\(w.kind)\"\(w.bundle.map { " (bundle \($0))" } ?? "")")
                    continue
                }
                let family: WidgetFamily
                if let f = w.family {
                    guard desc.families.contains(f) else {
                        unresolved.append("widget \(w.id): kind \"\(w.kind)\" does not support \(f) (supports \(desc.families.map(\.rawValue).joined(separator: ", ")))")
                        continue
                    }
                    family = f
                } else if let f = desc.families.first { family = f } else {
                    unresolved.append("widget \(w.id): kind \"\(w.kind)\" supports no family"); continue
                }
                out.append(InstanceSpec(id: w.id, bundleName: name, kind: w.kind, family: family,
                                        parameters: w.parameters, outputs: w.outputs, appGroups: manifest.appGroups,
                                        colorScheme: w.picture.followsDesktop ? desktopColorScheme : w.picture.colorScheme,
                                        renderingMode: w.picture.requestedRenderingMode))
            }
            let placed = Set(out.map { "\($0.bundleName)\u{0}\($0.kind)" })
            let unplaced = pairs.flatMap { name, manifest in
                manifest.widgets.filter { !placed.contains("\(name)\u{0}\($0.kind)") }
                    .map { UnplacedKind(kind: $0.kind, bundle: name, families: $0.families.map(\.rawValue)) }
            }
            return Plan(instances: out, unresolved: unresolved, unplaced: unplaced)
        } else {
            var used: Set<String> = []
            for (name, manifest) in pairs {
                for desc in manifest.widgets {
                    for family in desc.families where config.defaults.families?.contains(family) ?? true {
                        let base = WidgetID.derived(kind: desc.kind, family: family)
                        var id = base, n = 2
                        while used.contains(id) { id = "\(base)-\(n)"; n += 1 }
                        used.insert(id)
                        var params: [String: JSONValue] = [:]
                        for p in desc.parameters { if let d = p.defaultValue { params[p.name] = d } }
                        out.append(InstanceSpec(id: id, bundleName: name, kind: desc.kind, family: family,
                                                parameters: params, outputs: config.defaults.outputs, appGroups: manifest.appGroups,
                                                colorScheme: config.defaults.picture.followsDesktop ? desktopColorScheme : config.defaults.picture.colorScheme,
                                                renderingMode: config.defaults.picture.requestedRenderingMode))
                    }
                }
            }
        }
        if out.count > HostConfig.widgetLimit {
            unresolved.append("\(out.count - HostConfig.widgetLimit) widget instances past the limit of \(HostConfig.widgetLimit) per host not started (list the ones to run in widgets)")
            out.removeLast(out.count - HostConfig.widgetLimit)
        }
        return Plan(instances: out, unresolved: unresolved)
    }
}
