import FoundationEssentials
@testable import OpenWidgetKit
import Testing

/// The lookups of a bundle's compiled strings and colours (`LocalizedStrings`, `LocalizedFormat`,
/// `PluralRule`, `AssetLookup`) against catalogues built here, never the process's own (tests run
/// in parallel; the catalogue a bundle finds is its `.so`'s — see IntegrationTests'
/// BundleResourceTests for that path).
@Suite struct LocalizedStringsTests {
    static let resources: BundleResources = {
        var c = BundleResources.Catalog()
        c.developmentLanguage = "en"
        c.strings = ["Localizable": ["en": ["greeting": "Hello", "%@ has %lld steps": "%@ has %lld steps"],
                                     "de": ["greeting": "Hallo", "%@ has %lld steps": "%2$lld Schritte hat %1$@"],
                                     "pt-BR": ["greeting": "Olá"],
                                     "Base": ["only.base": "from Base"]]]
        c.plurals = ["Localizable": ["fr": ["%lld cups": ["one": "%lld tasse", "other": "%lld tasses"]],
                                     "ru": ["%lld cups": ["one": "%lld чашка", "few": "%lld чашки", "many": "%lld чашек"]]]]
        c.colors = ["Brand": ["any": [1, 0, 0, 1], "dark": [0, 0, 1, 1]], "OnlyLight": ["light": [0, 1, 0, 1]]]
        return BundleResources(catalog: c)
    }()

    func string(_ key: String, _ languages: [String], _ args: [LocalizationArgument] = []) -> String {
        LocalizedStrings.string(key, arguments: args, languages: languages, in: Self.resources)
    }

    @Test func posixLocaleNamesGiveTableLanguages() {
        #expect(LocalizedStrings.candidates(forLocale: "de_DE.UTF-8") == ["de-DE", "de_DE", "de"])
        #expect(LocalizedStrings.candidates(forLocale: "pt_BR") == ["pt-BR", "pt_BR", "pt"])
        #expect(LocalizedStrings.candidates(forLocale: "fr") == ["fr"])
        #expect(LocalizedStrings.candidates(forLocale: "C.UTF-8").isEmpty && LocalizedStrings.candidates(forLocale: "POSIX").isEmpty)
    }

    @Test func theUsersLanguageThenTheDevelopmentLanguageThenBaseThenTheKey() {
        #expect(string("greeting", ["de-DE", "de_DE", "de"]) == "Hallo")
        #expect(string("greeting", ["pt-BR", "pt_BR", "pt"]) == "Olá")
        #expect(string("greeting", ["ja"]) == "Hello")
        #expect(string("greeting", []) == "Hello")
        #expect(string("only.base", ["de"]) == "from Base")
        #expect(string("no.such.key", ["de"]) == "no.such.key")
    }

    @Test func translationsReorderTheirValues() {
        #expect(string("%@ has %lld steps", ["de"], [.string("Ana"), .integer(42)]) == "42 Schritte hat Ana")
        #expect(string("%@ has %lld steps", ["en"], [.string("Ana"), .integer(42)]) == "Ana has 42 steps")
    }

    @Test func pluralsFollowEachLanguagesRule() {
        #expect(string("%lld cups", ["fr"], [.integer(0)]) == "0 tasse")
        #expect(string("%lld cups", ["fr"], [.integer(2)]) == "2 tasses")
        #expect(string("%lld cups", ["ru"], [.integer(21)]) == "21 чашка")
        #expect(string("%lld cups", ["ru"], [.integer(3)]) == "3 чашки")
        #expect(string("%lld cups", ["ru"], [.integer(11)]) == "11 чашек")
        #expect(PluralRule.category(for: 1, language: "en") == "one" && PluralRule.category(for: 1, language: "ja") == "other")
    }

    @Test func printfSubset() {
        #expect(LocalizedFormat.apply("%.1f km", [.double(7.25)]) == "7.3 km")
        #expect(LocalizedFormat.apply("%lf", [.double(7.5)]) == "7.500000")
        #expect(LocalizedFormat.apply("%d%% of %@", [.integer(62), .string("budget")]) == "62% of budget")
        #expect(LocalizedFormat.apply("%@ and %@", [.string("one")]) == "one and %@")
        #expect(LocalizedFormat.apply("50%", []) == "50%")
    }

    @Test func colourSetsPerAppearance() {
        #expect(AssetLookup.color("Brand", scheme: .light, in: Self.resources) == [1, 0, 0, 1])
        #expect(AssetLookup.color("Brand", scheme: .dark, in: Self.resources) == [0, 0, 1, 1])
        #expect(AssetLookup.color("OnlyLight", scheme: .dark, in: Self.resources) == [0, 1, 0, 1])
        #expect(AssetLookup.color("Nope", scheme: .light, in: Self.resources) == nil)
    }

    /// The key of an interpolated literal is Apple's: values become `%@`, `%lld`, `%lf`, and a
    /// literal `%` is doubled.
    @Test func interpolationMakesApplesKey() {
        let n = 3, name = "Ana", km = 2.5
        let resource: LocalizedStringResource = "\(name) walked \(km) km in \(n) days, 100%"
        #expect(resource.key == "Ana walked 2.5 km in 3 days, 100%")
        #expect(resource.tableKey == "%@ walked %lf km in %lld days, 100%%")
        #expect(resource.arguments == [.string("Ana"), .double(2.5), .integer(3)])
        let ratio = 0.625
        let key: LocalizedStringKey = "\(ratio * 100, specifier: "%.0f")% done"
        #expect(key.tableKey == "%.0f%% done" && key.arguments == [.double(62.5)])
        #expect(resource.localized == "Ana walked 2.5 km in 3 days, 100%")
    }
}
