// Apple-style widget code, as an iOS widget extension has it: only the imports differ
// (`WidgetKit`/`SwiftUI`/`AppIntents` → `OpenWidgetKit`). Swift 5 language mode, as widget
// extensions are. Tests/IntegrationTests/AppleStyleBundleTests.swift drives it.
import OpenWidgetKit

struct SelectCityIntent: WidgetConfigurationIntent {
    static var title: LocalizedStringResource = "Select City"
    static var description: IntentDescription = "Pick the city the widget shows."

    @Parameter(title: "City", default: .berlin)
    var city: City
}

enum City: String, AppEnum {
    case berlin, lisbon, tokyo

    static var typeDisplayRepresentation: TypeDisplayRepresentation = "City"
    static var caseDisplayRepresentations: [City: DisplayRepresentation] = [
        .berlin: "Berlin",
        .lisbon: "Lisbon",
        .tokyo: "Tokyo",
    ]
}

struct RefreshIntent: AppIntent {
    static var title: LocalizedStringResource = "Refresh"

    func perform() async throws -> some IntentResult {
        return .result()
    }
}
