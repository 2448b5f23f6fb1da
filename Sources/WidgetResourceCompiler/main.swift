import Foundation
import OpenWidgetKit

// widget-resource-compiler OUTPUT.swift INPUT…
//
// The tool of the WidgetBundleSupport build plugin: compiles a widget bundle's asset catalogues
// (`*.xcassets` folders) and string tables (`*.strings`, `*.stringsdict`, `*.xcstrings`) into
// one Swift file that embeds them as a JSON document (`BundleResources.Catalog`) and exports
// it as `owk_bundle_resources_v1`, which the SDK finds at the first lookup. So the resources
// are inside the bundle's `.so`, wherever it is copied and however its worker is sandboxed.
// Warnings name the file; an unreadable input leaves out that asset or table, never the build.

let arguments = CommandLine.arguments.dropFirst()
guard let outputPath = arguments.first else {
    FileHandle.standardError.write(Data("usage: widget-resource-compiler OUTPUT.swift INPUT…\n".utf8))
    exit(2)
}
let inputs = arguments.dropFirst().map { URL(fileURLWithPath: $0) }

var catalog = BundleResources.Catalog()
var tables = StringTables()
var warnings: [String] = []
for input in inputs.sorted(by: { $0.path < $1.path }) {
    if input.pathExtension == "xcassets" {
        let assets = AssetCatalog(folder: input)
        for (name, set) in assets.colors {
            if catalog.colors?[name] != nil { warnings.append("\(input.path): warning: colour \"\(name)\" is defined twice") }
            catalog.colors = (catalog.colors ?? [:]).merging([name: set]) { _, new in new }
        }
        for (name, variants) in assets.images {
            if catalog.images?[name] != nil { warnings.append("\(input.path): warning: image \"\(name)\" is defined twice") }
            catalog.images = (catalog.images ?? [:]).merging([name: variants]) { _, new in new }
        }
        warnings += assets.warnings
    } else {
        tables.add(input, developmentLanguage: "en")
    }
}
warnings += tables.warnings
catalog.developmentLanguage = tables.developmentLanguage ?? "en"
catalog.strings = tables.strings.isEmpty ? nil : tables.strings
catalog.plurals = tables.plurals.isEmpty ? nil : tables.plurals

let encoder = JSONEncoder()
encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
let document = String(decoding: try encoder.encode(catalog), as: UTF8.self)
// Named as in the bundle's folder: `de.lproj/Localizable.strings`, `Assets.xcassets`.
let names = inputs.map { url in
    let folder = url.deletingLastPathComponent()
    return folder.pathExtension == "lproj" ? folder.lastPathComponent + "/" + url.lastPathComponent : url.lastPathComponent
}
let source = GeneratedSource.swift(document: document, inputs: names)
let output = URL(fileURLWithPath: outputPath)
// Rewritten only when it changes, so an unchanged catalogue recompiles nothing.
if (try? String(contentsOf: output, encoding: .utf8)) != source {
    try source.write(to: output, atomically: true, encoding: .utf8)
}
for w in warnings { FileHandle.standardError.write(Data((w + "\n").utf8)) }
