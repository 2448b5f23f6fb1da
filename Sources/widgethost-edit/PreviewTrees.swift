import FoundationEssentials
import OpenWidgetKit
import WidgetConfigEditing
import WidgetHostCore

/// The trees a gallery shows: each widget's snapshot in each family (its placeholder when the
/// snapshot fails), asked of the bundle's own worker with `isPreview` set — as `widgethost
/// preview` asks them, with the config's app-group containers and the bundle's limits, so the
/// preview reads what the running host's instance would read.
///
/// Blocking (one worker per bundle, one request at a time); GTK's main thread. A bundle whose
/// worker cannot start gives no trees, and the gallery says so on its tiles.
struct PreviewTrees {
    let config: HostConfig

    /// Trees of `bundle`'s widgets by kind and family, with the problems met (one line each).
    func trees(of bundle: InstalledBundle) -> (trees: [String: ViewNode], problems: [String]) {
        let path = config.paths.plugins + "/" + bundle.fileName
        let arguments = config.limits(fileName: bundle.fileName, bundleId: bundle.manifest.bundleId).workerArguments
        let worker: BlockingWorkerClient
        do {
            worker = try BlockingWorkerClient(pluginPath: path, environment: ["WIDGETHOST_CONTAINERS": config.paths.containers], arguments: arguments)
        } catch {
            return ([:], ["\(bundle.fileName): cannot start its worker: \(error)"])
        }
        var trees: [String: ViewNode] = [:], problems: [String] = []
        for widget in bundle.manifest.widgets {
            for family in widget.families {
                var last = ""
                for op in [WireOperation.snapshot, .placeholder] {
                    do {
                        let r = try worker.request(WireRequest(op: op, kind: widget.kind, family: family, isPreview: true),
                                                   timeout: config.defaults.requestTimeoutSeconds)
                        if r.ok, let view = r.entries?.first?.view {
                            trees[Self.key(widget.kind, family)] = view
                            break
                        }
                        last = r.error ?? "no entry"
                    } catch {
                        last = "\(error)"
                        if worker.hasExited { break }
                    }
                }
                if trees[Self.key(widget.kind, family)] == nil { problems.append("\(widget.kind) \(family.rawValue): \(last)") }
            }
        }
        return (trees, problems)
    }

    static func key(_ kind: String, _ family: WidgetFamily) -> String { kind + "\u{1F}" + family.rawValue }
}
