import FoundationEssentials
import OpenWidgetKit
import Testing
import WidgetConfigEditing

/// An `AppEntity` parameter as the manifest describes it (type `entity`, the query's suggested
/// entities as options): the command line and the form take one of its ids, by its title in the
/// form, and refuse any other naming the valid ones (issue 27).
@Suite struct EntityParameterTests {
    static let cities = [EnumOption(value: "berlin", title: "Berlin"), EnumOption(value: "tokyo", title: "Tokyo")]
    static let widget = WidgetDescriptor(
        kind: "city", displayName: "City", description: "", families: [.systemSmall],
        parameters: [
            ParameterDescriptor(name: "city", title: "City", type: "entity", defaultValue: .string("tokyo"), options: cities),
            ParameterDescriptor(name: "offline", title: "Offline", type: "entity", options: []),
        ],
        configuration: "AppIntentConfiguration")

    @Test func aSuggestedIdIsTakenAndAnyOtherRefusedNamingTheValidOnes() throws {
        #expect(try ParameterValues.value("city", text: "berlin", of: Self.widget) == .string("berlin"))
        #expect(throws: ConfigEditError("city parameter city expects the id of one of: berlin (Berlin), tokyo (Tokyo), got 'Berlin'")) {
            try ParameterValues.value("city", text: "Berlin", of: Self.widget)
        }
        #expect(throws: ConfigEditError("city parameter city expects the id of one of: berlin (Berlin), tokyo (Tokyo), got 3")) {
            try ParameterValues.checked(.number(3), name: "city", of: Self.widget)
        }
        // A query that suggested nothing (or failed when the bundle was described): nothing fits.
        #expect(throws: ConfigEditError("city parameter offline expects an entity id (its query suggested none), got 'x'")) {
            try ParameterValues.value("offline", text: "x", of: Self.widget)
        }
    }

    @Test func theFormOffersTheEntitiesByTitle() {
        let form = ParameterForm(id: "city-systemSmall", widget: Self.widget, family: .systemSmall, configured: [:])
        #expect(form.fields[0].control == .menu(Self.cities))
        #expect(form.fields[0].value == .string("tokyo"))
        #expect(form.fields[0].shown(.string("berlin")) == "Berlin")
        #expect(form.fields[1].control == .text)
    }

    /// A configured id the query no longer suggests (or an old config's free text) is one more
    /// item of the menu, shown by itself and selected; untouched, it is no change.
    @Test func aConfiguredValueTheMenuDoesNotOfferIsShownAndKept() {
        let form = ParameterForm(id: "city-systemSmall", widget: Self.widget, family: .systemSmall, configured: ["city": .string("paris, rome")])
        #expect(form.fields[0].control == .menu(Self.cities + [EnumOption(value: "paris, rome", title: "paris, rome")]))
        #expect(form.fields[0].value == .string("paris, rome"))
        #expect(form.fields[0].shown(.string("paris, rome")) == "paris, rome")
        #expect(form.changes(["city": .value(.string("paris, rome"))]).isEmpty)
        #expect(form.changes(["city": .value(.string("berlin"))]).map(\.name) == ["city"])
        // A value the menu offers adds nothing.
        let offered = ParameterForm(id: "city-systemSmall", widget: Self.widget, family: .systemSmall, configured: ["city": .string("berlin")])
        #expect(offered.fields[0].control == .menu(Self.cities))
    }
}
