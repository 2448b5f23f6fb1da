/// An image: `Image(systemName:)` → `image` node with `symbol`; `Image("asset")` → `image`
/// node whose `text` is the asset name (renderers may show it as alt text) and whose `asset`
/// holds the image set's PNG or JPEG variants for the evaluated appearance (`AssetLookup`; a name the
/// bundle's catalogue lacks is recorded as missing).
public struct Image: View, PrimitiveView, Hashable {
    public typealias Body = Never
    var symbol: String?
    var name: String?
    var renderingMode: TemplateRenderingMode?
    /// A PNG or JPEG read at run time (`Image(uiImage: UIImage(contentsOfFile:))`), not from the catalogue.
    var loaded: ImageAsset?

    public init(systemName: String) { symbol = systemName }
    public init(_ name: String) { self.name = name }
    init(asset: ImageAsset, name: String?) { loaded = asset; self.name = name }

    /// Accepted for source compatibility (kept in `modifiers.other["resizable"]`).
    public func resizable() -> some View { _NodeModifier.other("resizable", .bool(true)).apply(to: self) }

    /// How the image is coloured: `template` takes the foreground style (as a symbol always is
    /// here), `original` its own colours. Kept in `modifiers.other["renderingMode"]`.
    public enum TemplateRenderingMode: String, Hashable, Sendable { case template, original }

    /// `Image("logo").renderingMode(.template)`.
    public func renderingMode(_ mode: TemplateRenderingMode?) -> Image {
        var image = self
        image.renderingMode = mode
        return image
    }

    func makeNodes() -> [ViewNode] {
        var n = ViewNode(kind: .image)
        n.symbol = symbol
        n.text = name
        if let loaded {
            n.asset = loaded
        } else if let name {
            let scheme = EnvironmentValues.current.colorScheme
            if let asset = AssetLookup.image(name, scheme: scheme) { n.asset = asset } else { ResourceMisses.record("image \"\(name)\"") }
        }
        if let renderingMode {
            var m = Modifiers()
            m.other = ["renderingMode": .string(renderingMode.rawValue)]
            n.modifiers = m
        }
        return [n]
    }
}
