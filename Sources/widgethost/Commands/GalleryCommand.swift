import ArgumentParser
import FoundationEssentials
import OpenWidgetKit
import WidgetConfigEditing
import WidgetHostCore

/// `widgethost gallery [--json]`: every installed widget kind in every family it supports, with
/// its parameters and the ids of the instances that place it.
struct GalleryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gallery",
        abstract: "List every installed widget in every family, with its parameters, placed or not."
    )

    @Flag(help: "One JSON array, an object per line: {bundle, bundleId, configuration, description, displayName, family, kind, parameters, placed}.")
    var json = false

    @OptionGroup var options: ConfigEditOptions

    func run() throws {
        let source = ConfigSource(explicitPath: options.config)
        let config: HostConfig
        switch source.load() {
        case .success(let c): config = c
        case .failure(let e): ControlClient.printError("widgethost: \(e)"); throw ExitCode(1)
        }
        // A running host lists its placed bundles' entities again: the players and calendars there now.
        ConfigEditOptions.refreshEntities(config, environment: source.environment)
        let catalog = PluginFolderCatalog(config: config, manifestCache: BundleManifestCache(hostConfig: config))
        let items: [GalleryItem]
        do { items = try WidgetGallery.items(config: config, catalog: catalog) } catch {
            ControlClient.printError("widgethost: \(error)"); throw ExitCode(1)
        }
        for p in catalog.problems { ControlClient.printError("warning: \(p)") }
        if json {
            let e = JSONEncoder()
            e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            let lines = try items.map { String(decoding: try e.encode($0), as: UTF8.self) }
            print(lines.isEmpty ? "[]" : "[\n" + lines.joined(separator: ",\n") + "\n]")
            return
        }
        if items.isEmpty { print("no widgets installed in \(catalog.pluginFolder)") }
        var lastKind = ""
        for item in items {
            let header = "\(item.bundle)\t\(item.kind)"
            if header != lastKind {
                lastKind = header
                print("\(item.kind) — \(item.displayName)" + (item.description.isEmpty ? "" : ": \(item.description)") + "  [\(item.bundle), \(item.bundleId)]")
                for p in item.parameters {
                    print("    parameter \(p.name) (\(p.title)): \(ParameterValues.typeDescription(p))" + (p.defaultValue.map { ", default \(JSONText.value($0))" } ?? ""))
                }
            }
            print("  \(item.family.rawValue.padding(to: 22))" + (item.placed.isEmpty ? "not placed" : "placed: \(item.placed.joined(separator: ", "))"))
        }
    }
}

private extension String {
    func padding(to width: Int) -> String { count >= width ? self + " " : self + String(repeating: " ", count: width - count) }
}
