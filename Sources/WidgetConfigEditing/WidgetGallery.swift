import OpenWidgetKit
import WidgetHostCore

/// One widget kind in one family, as a gallery shows it: what it is, what it takes, and which
/// configured instances already show it. Value type.
public struct GalleryItem: Codable, Equatable, Sendable {
    /// The bundle's `.so` file name and its bundle id.
    public var bundle: String
    public var bundleId: String
    public var kind: String
    public var displayName: String
    public var description: String
    public var family: WidgetFamily
    /// `StaticConfiguration` or `AppIntentConfiguration`.
    public var configuration: String
    public var parameters: [ParameterDescriptor]
    /// Ids of the configured instances of this kind in this family (empty: not placed).
    public var placed: [String]
}

/// Every installed kind × family with its parameters, placed or not: `widgethost gallery` and the
/// desktop's "Add Widget" list. Pure over a catalog; one thread at a time.
public enum WidgetGallery {
    /// The session-bus name `widgethost-edit` owns while an "Add Widget" window is open: the lean
    /// surface, watching it, is in edit mode meanwhile (the whole grid takes the gallery's drops).
    public static let busName = "org.widgethost.Gallery"

    public static func items(config: HostConfig, catalog: any WidgetCatalog) throws -> [GalleryItem] {
        let bundles = try catalog.installedBundles()
        let plan = WidgetInstancePlanner.plan(config: config, bundles: bundles.map(\.manifest), bundleNames: bundles.map(\.fileName))
        return bundles.flatMap { b in
            b.manifest.widgets.flatMap { w in
                w.families.map { family in
                    GalleryItem(bundle: b.fileName, bundleId: b.manifest.bundleId, kind: w.kind, displayName: w.displayName,
                                description: w.description, family: family, configuration: w.configuration, parameters: w.parameters,
                                placed: plan.instances.filter { $0.bundleName == b.fileName && $0.kind == w.kind && $0.family == family }.map(\.id))
                }
            }
        }
    }
}
