/// An image: `Image(systemName:)` → `image` node with `symbol`; `Image("asset")` → `image`
/// node whose `text` is the asset name (renderers may show it as alt text).
public struct Image: View, PrimitiveView, Hashable {
    public typealias Body = Never
    var symbol: String?
    var name: String?

    public init(systemName: String) { symbol = systemName }
    public init(_ name: String) { self.name = name }

    /// Accepted for source compatibility (kept in `modifiers.other["resizable"]`).
    public func resizable() -> some View { _NodeModifier.other("resizable", .bool(true)).apply(to: self) }

    func makeNodes() -> [ViewNode] {
        var n = ViewNode(kind: .image)
        n.symbol = symbol
        n.text = name
        return [n]
    }
}
