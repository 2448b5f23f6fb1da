import Foundation
import OpenWidgetKit

/// An `.xcassets` folder read as Xcode's asset catalogue compiler reads it, for the parts widgets
/// use: colour sets (`.colorset`) and image sets (`.imageset`) of PNG or JPEG files at 1x/2x/3x, each
/// with "any", light and dark luminosity appearances. Folders are groups; a folder whose
/// `Contents.json` says `provides-namespace` prefixes its assets' names (`Icons/Star`).
/// The idioms kept are `universal` and `iphone` (`universal` wins); high-contrast variants are
/// left out. What is not supported — PDF, SVG and JPEG images, symbol sets, data sets — is a
/// warning naming the file, and the asset is absent (so a lookup of it is reported as missing).
/// Not thread-safe: one compile, one thread.
struct AssetCatalog {
    var colors: [String: [String: [Double]]] = [:]
    var images: [String: [ImageVariant]] = [:]
    var warnings: [String] = []

    init(folder: URL) {
        walk(folder, namespace: "")
    }

    private mutating func walk(_ folder: URL, namespace: String) {
        let entries = (try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: [.isDirectoryKey])) ?? []
        for entry in entries.sorted(by: { $0.lastPathComponent < $1.lastPathComponent }) {
            guard (try? entry.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) == true else { continue }
            let name = entry.deletingPathExtension().lastPathComponent
            switch entry.pathExtension {
            case "colorset": colorSet(entry, name: namespace + name)
            case "imageset": imageSet(entry, name: namespace + name)
            case "symbolset":
                warn(entry, "symbol sets are not supported: Image(\"\(namespace + name)\") will be reported missing; export the symbol as PNG in an image set")
            case "dataset", "appiconset", "launchimage", "brandassets", "stickerpack":
                continue
            case "":
                let contents = json(entry.appendingPathComponent("Contents.json"))
                let properties = contents?["properties"] as? [String: Any]
                let namespaced = (properties?["provides-namespace"] as? Bool) == true
                walk(entry, namespace: namespaced ? namespace + name + "/" : namespace)
            default:
                warn(entry, "asset type .\(entry.pathExtension) is not supported; left out")
            }
        }
    }

    private mutating func colorSet(_ folder: URL, name: String) {
        let file = folder.appendingPathComponent("Contents.json")
        guard let contents = json(file), let entries = contents["colors"] as? [[String: Any]] else {
            warn(file, "no \"colors\" list; colour \"\(name)\" left out")
            return
        }
        var byAppearance: [String: (rank: Int, rgba: [Double])] = [:]
        for entry in entries {
            guard let rank = idiomRank(entry), let appearance = appearance(entry) else { continue }
            guard let color = entry["color"] as? [String: Any] else { continue }
            if let reference = color["reference"] as? String {
                warn(file, "system colour references (\(reference)) are not supported; that variant is left out")
                continue
            }
            guard let components = color["components"] as? [String: Any] else { continue }
            do {
                let rgba = try ColorComponents.rgba(space: color["color-space"] as? String, components: components)
                if byAppearance[appearance].map({ $0.rank > rank }) ?? true { byAppearance[appearance] = (rank, rgba) }
            } catch {
                warn(file, "\(error); colour \"\(name)\" (\(appearance)) left out")
            }
        }
        if byAppearance.isEmpty { return }
        colors[name] = byAppearance.mapValues(\.rgba)
    }

    private mutating func imageSet(_ folder: URL, name: String) {
        let file = folder.appendingPathComponent("Contents.json")
        guard let contents = json(file), let entries = contents["images"] as? [[String: Any]] else {
            warn(file, "no \"images\" list; image \"\(name)\" left out")
            return
        }
        var chosen: [String: (rank: Int, variant: ImageVariant)] = [:]
        for entry in entries {
            guard let filename = entry["filename"] as? String, let rank = idiomRank(entry),
                  let appearance = appearance(entry) else { continue }
            let path = folder.appendingPathComponent(filename)
            guard ["png", "jpg", "jpeg"].contains(path.pathExtension.lowercased()) else {
                warn(path, "only PNG and JPEG images are supported (PDF, SVG and HEIC are not); export 1x/2x/3x PNGs for image \"\(name)\"")
                continue
            }
            let scaleText = (entry["scale"] as? String) ?? "1x"
            guard let scale = Double(scaleText.dropLast()), scaleText.hasSuffix("x"), scale >= 1, scale <= 4 else {
                warn(path, "scale \"\(scaleText)\" is not 1x, 2x or 3x; left out")
                continue
            }
            guard let data = try? Data(contentsOf: path) else {
                warn(path, "cannot be read; left out")
                continue
            }
            let variant: ImageVariant
            do {
                variant = try ImageVariant(file: data, scale: scale, appearance: appearance == "any" ? nil : appearance)
            } catch {
                warn(path, "\(error); left out")
                continue
            }
            let slot = "\(scaleText) \(appearance)"
            if chosen[slot].map({ $0.rank > rank }) ?? true { chosen[slot] = (rank, variant) }
        }
        let variants = chosen.keys.sorted().compactMap { chosen[$0]?.variant }
        if !variants.isEmpty { images[name] = variants }
    }

    /// 0 for `universal`, 1 for `iphone`; nil for idioms a widget never uses.
    private func idiomRank(_ entry: [String: Any]) -> Int? {
        switch (entry["idiom"] as? String) ?? "universal" {
        case "universal": 0
        case "iphone": 1
        default: nil
        }
    }

    /// `any`, `light` or `dark`; nil for a variant of another appearance (high contrast).
    private func appearance(_ entry: [String: Any]) -> String? {
        var result = "any"
        for a in (entry["appearances"] as? [[String: Any]]) ?? [] {
            switch (a["appearance"] as? String, a["value"] as? String) {
            case ("luminosity", "dark"?): result = "dark"
            case ("luminosity", "light"?): result = "light"
            default: return nil
            }
        }
        return result
    }

    private func json(_ file: URL) -> [String: Any]? {
        guard let data = try? Data(contentsOf: file) else { return nil }
        return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
    }

    private mutating func warn(_ file: URL, _ message: String) {
        warnings.append("\(file.path): warning: \(message)")
    }
}
