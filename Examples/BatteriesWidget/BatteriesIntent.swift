import FoundationEssentials
import OpenWidgetKit

/// The widget's parameters, edited in the Edit Widget form: which batteries, and whether the
/// time left is shown.
struct BatteriesConfigurationIntent: WidgetConfigurationIntent {
    static var title: LocalizedStringResource = "Batteries"
    static var description = IntentDescription("The charge of the laptop and of its devices.")

    @Parameter(title: "Devices", default: .all)
    var devices: DeviceChoice

    @Parameter(title: "Show Time Left", default: true)
    var showsTimeLeft: Bool
}

enum DeviceChoice: String, AppEnum {
    case all, laptop
    static var typeDisplayRepresentation = TypeDisplayRepresentation(name: "Devices")
    static var caseDisplayRepresentations: [DeviceChoice: DisplayRepresentation] = [
        .all: "All Devices",
        .laptop: "Laptop Only",
    ]
}
