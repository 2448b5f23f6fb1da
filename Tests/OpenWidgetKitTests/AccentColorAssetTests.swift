import FoundationEssentials
import Testing
@testable import OpenWidgetKit

/// `Color.accentColor` is the catalogue's `AccentColor` set, in the evaluation's appearance,
/// as Xcode's widget template makes it on iOS; a bundle without one keeps the system blue.
@Suite struct AccentColorAssetTests {
    func resolved(_ scheme: ColorScheme, _ resources: BundleResources) -> StyleSpec? {
        var tree = ViewEvaluator.evaluate(Text("Today").foregroundStyle(Color.accentColor), environment: EnvironmentValues())
        AssetLookup.resolveColors(&tree, scheme: scheme, in: resources)
        var found: StyleSpec?
        tree.walk { if let f = $0.modifiers?.foreground { found = f } }
        return found
    }

    @Test func theAccentColorSetTintsAccentColor() {
        var catalog = BundleResources.Catalog()
        catalog.colors = ["AccentColor": ["any": [0.345, 0.337, 0.839, 1], "dark": [0.369, 0.361, 0.902, 1]]]
        let purple = BundleResources(catalog: catalog)
        #expect(resolved(.light, purple)?.rgba == [0.345, 0.337, 0.839, 1])
        #expect(resolved(.light, purple)?.name == nil)
        #expect(resolved(.dark, purple)?.rgba == [0.369, 0.361, 0.902, 1])
    }

    @Test func withoutOneAccentColorStaysTheSystemColour() {
        let none = BundleResources(catalog: BundleResources.Catalog())
        #expect(resolved(.light, none)?.name == "accent")
        #expect(resolved(.light, none)?.rgba == nil)
    }
}
