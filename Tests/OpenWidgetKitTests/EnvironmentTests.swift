import Testing
import FoundationEssentials
@testable import OpenWidgetKit

struct FamilyReader: View {
    @Environment(\.widgetFamily) var family
    @Environment(\.showsWidgetContainerBackground) var showsBackground
    @Environment(\.redactionReasons) var reasons
    var body: some View {
        Text("\(family.rawValue) bg=\(showsBackground) placeholder=\(reasons.contains(.placeholder))")
    }
}

@Test func environmentReadsTheRequestValues() {
    var env = EnvironmentValues()
    env.widgetFamily = .systemMedium
    env.showsWidgetContainerBackground = false
    let node = ViewEvaluator.evaluate(FamilyReader(), environment: env)
    #expect(node.text == "systemMedium bg=false placeholder=false")
}

@Test func environmentModifierScopesASubtree() {
    let v = VStack {
        FamilyReader()
        FamilyReader().environment(\.widgetFamily, .accessoryInline)
        VStack { FamilyReader() }.environment(\.widgetFamily, .systemLarge).environment(\.widgetFamily, .systemMedium)
        FamilyReader()
    }
    let node = eval(v, family: .systemSmall)
    let t = texts(node).map { $0.split(separator: " ")[0] }
    // innermost .environment wins, and the scope ends with the subtree
    #expect(t == ["systemSmall", "accessoryInline", "systemLarge", "systemSmall"])
}

@Test func customEnvironmentKey() {
    struct Reader: View {
        @Environment(\.accentName) var accent
        var body: some View { Text(accent) }
    }
    let node = eval(VStack { Reader(); Reader().environment(\.accentName, "gold") })
    #expect(texts(node) == ["none", "gold"])
}

extension EnvironmentValues {
    var accentName: String {
        get { self[TestAccentKey.self] }
        set { self[TestAccentKey.self] = newValue }
    }
}
struct TestAccentKey: EnvironmentKey { static let defaultValue = "none" }

@Test func placeholderRedactionMarksRootAndRedactedModifierSetsReasons() {
    let node = eval(FamilyReader(), redaction: .placeholder)
    #expect(node.modifiers?.redacted == true)
    #expect(node.text?.hasSuffix("placeholder=true") == true)

    let plain = eval(FamilyReader())
    #expect(plain.modifiers?.redacted == nil)

    let scoped = eval(VStack { FamilyReader().redacted(reason: .placeholder); FamilyReader() })
    #expect(scoped.childNodes[0].modifiers?.redacted == true)
    #expect(texts(scoped)[0].hasSuffix("placeholder=true"))
    #expect(texts(scoped)[1].hasSuffix("placeholder=false"))

    let unred = eval(FamilyReader().unredacted(), redaction: .placeholder)
    #expect(texts(unred).first?.hasSuffix("placeholder=false") == true)
    // the root is still marked redacted, around the explicitly unredacted node
    #expect(unred.modifiers?.redacted == true)
    #expect(unred.childNodes.first?.modifiers?.redacted == false)
}
