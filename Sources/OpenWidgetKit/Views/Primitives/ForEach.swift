/// Views computed from a collection; they flatten into the enclosing node in collection order.
///
/// Identity (`id:`) is accepted for source compatibility: an evaluated tree has no identity,
/// so it is not used. `content` is called at evaluation time, once per element.
public struct ForEach<Data: RandomAccessCollection, ID: Hashable, Content: View>: View, PrimitiveView {
    public typealias Body = Never
    public var data: Data
    public var content: (Data.Element) -> Content
    let idPath: KeyPath<Data.Element, ID>?

    /// `ForEach(items, id: \.self)` / `ForEach(items, id: \.name)`.
    public init(_ data: Data, id: KeyPath<Data.Element, ID>, @ViewBuilder content: @escaping (Data.Element) -> Content) {
        self.data = data; self.content = content; self.idPath = id
    }

    func makeNodes() -> [ViewNode] {
        var out: [ViewNode] = []
        for element in data { out += ViewEval.nodes(content(element)) }
        return out
    }
}

extension ForEach where Data.Element: Identifiable, ID == Data.Element.ID {
    /// `ForEach(items) { … }` over `Identifiable` elements.
    public init(_ data: Data, @ViewBuilder content: @escaping (Data.Element) -> Content) {
        self.data = data; self.content = content; self.idPath = \Data.Element.id
    }
}

extension ForEach where Data == Range<Int>, ID == Int {
    /// `ForEach(0..<7) { i in … }`.
    public init(_ data: Range<Int>, @ViewBuilder content: @escaping (Int) -> Content) {
        self.data = data; self.content = content; self.idPath = nil
    }
}

/// The result of a `for … in` loop in a `@ViewBuilder`: its elements flatten in order.
public struct _ViewArray<Element: View>: View, PrimitiveView {
    public typealias Body = Never
    public var elements: [Element]
    func makeNodes() -> [ViewNode] { elements.flatMap { ViewEval.nodes($0) } }
}
