import Testing
import FoundationEssentials
@testable import OpenWidgetKit

struct Item: Identifiable { let id: Int; let name: String }

struct Conditional: View {
    let flag: Bool
    let n: Int
    let optional: String?
    var body: some View {
        VStack {
            if flag { Text("yes") } else { Text("no") }
            if !flag { Text("only-when-false") }
            switch n {
            case 0: Text("zero")
            case 1: Image(systemName: "one")
            default: EmptyView()
            }
            if let optional { Text(optional) }
        }
    }
}

@Test func ifElseSwitchAndOptional() {
    let a = eval(Conditional(flag: true, n: 0, optional: "opt"))
    #expect(a.kind == .vstack)
    #expect(texts(a) == ["yes", "zero", "opt"])

    let b = eval(Conditional(flag: false, n: 1, optional: nil))
    #expect(texts(b) == ["no", "only-when-false"])
    #expect(b.childNodes.map(\.kind) == [.text, .text, .image])
    #expect(b.childNodes.last?.symbol == "one")

    let c = eval(Conditional(flag: true, n: 5, optional: nil))
    #expect(c.childNodes.count == 1)
}

@Test func forEachVariantsAndForLoopFlatten() {
    let items = [Item(id: 1, name: "a"), Item(id: 2, name: "b")]
    let words = ["x", "y", "z"]
    let v = HStack {
        ForEach(0..<3) { i in Text("r\(i)") }
        ForEach(words, id: \.self) { Text($0) }
        ForEach(items) { Text($0.name) }
        ForEach(items, id: \.name) { Text("n" + $0.name) }
        for i in 0..<2 { Text("loop\(i)") }
    }
    let node = eval(v)
    #expect(node.kind == .hstack)
    #expect(texts(node) == ["r0", "r1", "r2", "x", "y", "z", "a", "b", "na", "nb", "loop0", "loop1"])
    #expect(node.childNodes.count == 12)
}

@Test func groupTupleAndAnyViewFlattenAndRootWrapping() {
    let v = VStack {
        Group { Text("g1"); Text("g2") }.font(.caption)
        AnyView(Text("any"))
        Optional<Text>.none
    }
    let node = eval(v)
    #expect(node.childNodes.count == 3)
    // a modifier on a Group applies to each child
    #expect(node.childNodes[0].modifiers?.font?.style == "caption")
    #expect(node.childNodes[1].modifiers?.font?.style == "caption")
    #expect(node.childNodes[2].modifiers?.font == nil)

    // several views at the root become a group; none becomes empty
    struct Multi: View { var body: some View { Text("a"); Text("b") } }
    #expect(eval(Multi()).kind == .group)
    #expect(eval(Multi()).childNodes.count == 2)
    #expect(eval(EmptyView()).kind == .empty)
}

@Test func customViewModifier() {
    struct Card: ViewModifier {
        func body(content: Content) -> some View { content.padding(4).background(.blue) }
    }
    let node = eval(Text("c").modifier(Card()))
    #expect(node.kind == .text)
    #expect(node.modifiers?.padding?.top == 4)
    #expect(node.modifiers?.background?.name == "blue")
}
