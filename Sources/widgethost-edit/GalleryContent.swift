import CGtk
import Dispatch
import OpenWidgetKit
import WidgetConfigEditing
import WidgetHostCore

/// What the gallery shows: every installed kind × family (`WidgetGallery`) and each bundle's
/// preview trees (`PreviewTrees`), with the problems met on the way. Loading it runs a worker per
/// bundle to describe it and another for its previews — seconds with a few bundles — so it is
/// loaded off GTK's main thread (`load(config:then:)`) and the window stays responsive.
struct GalleryContent: Sendable {
    var items: [GalleryItem] = []
    /// Preview trees by bundle file name, then by `PreviewTrees.key(kind, family)`.
    var trees: [String: [String: ViewNode]] = [:]
    var problems: [String] = []
    var pluginFolder = ""
    /// Why nothing could be listed (the plugin folder cannot be read…).
    var failure: String?

    /// Blocking; any thread.
    static func load(config: HostConfig) -> GalleryContent {
        var content = GalleryContent()
        EditCommand.refreshEntities(config, environment: ProcessEnvironment.current())
        let catalog = EditCommand.catalog(config)
        content.pluginFolder = catalog.pluginFolder
        let bundles: [InstalledBundle]
        do {
            content.items = try WidgetGallery.items(config: config, catalog: catalog)
            bundles = try catalog.installedBundles()
        } catch {
            content.failure = "\(error)"
            return content
        }
        content.problems = catalog.problems
        let previews = PreviewTrees(config: config)
        for b in bundles {
            let got = previews.trees(of: b)
            content.trees[b.fileName] = got.trees
            content.problems += got.problems
        }
        return content
    }

    /// Loads on a background thread, then runs `then` on GTK's main thread (from its loop).
    /// Called on the main thread.
    static func load(config: HostConfig, then: @escaping (GalleryContent) -> Void) {
        let delivery = Delivery(then)
        DispatchQueue.global(qos: .userInitiated).async {
            delivery.deliver(load(config: config))
        }
    }

    /// Carries the loaded content from the loading thread to the main thread: written once by
    /// the loader before `g_idle_add`, read once on the main thread by the idle callback, which
    /// GLib runs after the add (hence `@unchecked Sendable`). `receive` runs on the main thread only.
    private final class Delivery: @unchecked Sendable {
        private let receive: (GalleryContent) -> Void
        private var content = GalleryContent()

        init(_ receive: @escaping (GalleryContent) -> Void) { self.receive = receive }

        func deliver(_ content: GalleryContent) {
            self.content = content
            let callback: GSourceFunc = { data in
                let me = Unmanaged<Delivery>.fromOpaque(data!).takeRetainedValue()
                me.receive(me.content)
                return 0
            }
            g_idle_add(callback, Unmanaged.passRetained(self).toOpaque())
        }
    }
}
