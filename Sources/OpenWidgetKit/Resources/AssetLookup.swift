import FoundationEssentials

/// `Color("Name")` and `Image("Name")` against the bundle's asset catalogue, in the appearance
/// of the evaluation (`\.colorScheme`: light unless `preview --dark` or the daemon's
/// `picture.colorScheme` says dark), as iOS resolves them.
///
/// A named colour is kept as `StyleSpec(name: "asset:Name")` while views are built (a
/// `static let brand = Color("Brand")` is made once but drawn in both appearances) and
/// replaced by its components when the evaluated tree is finished (`resolveColors`). An image
/// gets its PNG or JPEG variants when its node is made. A name the catalogue lacks is recorded
/// (`ResourceMisses`) and drawn as before: a colour by its plain name (grey), an image as the
/// placeholder of an unknown image. Pure over the immutable catalogue; safe from any thread.
public enum AssetLookup {
    /// The prefix of a named colour's `StyleSpec.name` until the tree is resolved.
    static let colorPrefix = "asset:"

    /// The components (`[r, g, b, a]`, sRGB 0…1) of colour `name` in `scheme`: the variant of
    /// that appearance, else the "any" one; nil when the catalogue has no such colour.
    public static func color(_ name: String, scheme: ColorScheme, in resources: BundleResources = .current) -> [Double]? {
        guard let set = resources.catalog.colors?[name] else { return nil }
        return set[scheme.rawValue] ?? set["any"] ?? set["light"]
    }

    /// Image `name` for `scheme`: the variants of that appearance, else those without one.
    public static func image(_ name: String, scheme: ColorScheme, in resources: BundleResources = .current) -> ImageAsset? {
        guard let all = resources.catalog.images?[name], !all.isEmpty else { return nil }
        let own = all.filter { $0.appearance == scheme.rawValue }
        let chosen = own.isEmpty ? all.filter { $0.appearance == nil || $0.appearance == "any" } : own
        return ImageAsset(name: name, variants: chosen.isEmpty ? all : chosen)
    }

    /// `tree` with every named colour (`asset:Name`) replaced by its components in `scheme`.
    /// Touches only trees that have one.
    static func resolveColors(_ tree: inout ViewNode, scheme: ColorScheme, in resources: BundleResources = .current) {
        resolve(&tree, scheme, resources)
    }

    /// `Color.accentColor`'s name: as on iOS, the catalogue's `AccentColor` set when it has one
    /// (Xcode's template names it the extension's global accent colour), else the system blue.
    static let accentName = "accent", accentColorSet = "AccentColor"

    private static func resolve(_ n: inout ViewNode, _ scheme: ColorScheme, _ resources: BundleResources) {
        if var shape = n.shape, named(shape.fill) || named(shape.stroke) {
            shape.fill = resolved(shape.fill, scheme, resources)
            shape.stroke = resolved(shape.stroke, scheme, resources)
            n.shape = shape
        }
        if var m = n.modifiers, named(m.foreground) || named(m.tint) || named(m.background) || named(m.containerBackground) {
            m.foreground = resolved(m.foreground, scheme, resources)
            m.tint = resolved(m.tint, scheme, resources)
            m.background = resolved(m.background, scheme, resources)
            m.containerBackground = resolved(m.containerBackground, scheme, resources)
            n.modifiers = m
        }
        guard var children = n.children else { return }
        for i in children.indices { resolve(&children[i], scheme, resources) }
        n.children = children
    }

    private static func named(_ s: StyleSpec?) -> Bool {
        guard let s else { return false }
        return s.name?.hasPrefix(colorPrefix) == true || s.name == accentName || (s.gradient?.contains { named($0) } ?? false)
    }

    private static func resolved(_ s: StyleSpec?, _ scheme: ColorScheme, _ resources: BundleResources) -> StyleSpec? {
        guard var s, named(s) else { return s }
        if s.name == accentName, let rgba = color(accentColorSet, scheme: scheme, in: resources) {
            s.name = nil
            s.rgba = rgba
        } else if let name = s.name, name.hasPrefix(colorPrefix) {
            let plain = String(name.dropFirst(colorPrefix.count))
            if let rgba = color(plain, scheme: scheme, in: resources) {
                s.name = nil
                s.rgba = rgba
            } else {
                ResourceMisses.record("color \"\(plain)\"")
                s.name = plain
            }
        }
        s.gradient = s.gradient?.map { resolved($0, scheme, resources) ?? $0 }
        return s
    }
}
