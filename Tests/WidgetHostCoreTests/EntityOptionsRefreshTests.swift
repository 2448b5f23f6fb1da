import OpenWidgetKit
import Testing
@testable import WidgetHostCore

/// A bundle that declares access beyond the base sandbox takes its entity parameters' options
/// from its serving worker's `describe` (the calendar bundle's calendars are not readable where
/// the first `describe` runs); nothing else of the validated manifest changes.
@Suite struct EntityOptionsRefreshTests {
    static func manifest(_ options: [EnumOption], filesystems: [String]? = ["~/.calendars:ro"], title: String = "Up Next") -> BundleManifest {
        BundleManifest(bundleId: "org.example.cal", sdkVersion: "1", abiVersion: 1, widgets: [
            WidgetDescriptor(kind: "UpNext", displayName: title, description: "", families: [.systemSmall], parameters: [
                ParameterDescriptor(name: "calendars", title: "Calendar", type: "entity", defaultValue: options.first.map { .string($0.value) }, options: options),
                ParameterDescriptor(name: "style", title: "Style", type: "enum", options: [EnumOption(value: "a", title: "A")]),
            ], configuration: "AppIntentConfiguration"),
        ], appGroups: [], filesystems: filesystems)
    }

    @Test func onlyABundleWithAnEntityAndDeclaredAccessIsAskedAgain() {
        #expect(PluginRegistry.needsEntityRefresh(Self.manifest([])))
        #expect(!PluginRegistry.needsEntityRefresh(Self.manifest([], filesystems: nil)))
        var noEntity = Self.manifest([])
        noEntity.widgets[0].parameters.removeFirst()
        #expect(!PluginRegistry.needsEntityRefresh(noEntity))
    }

    @Test func theEntityOptionsAndDefaultComeFromTheServingWorkerAndNothingElse() {
        let all = EnumOption(value: "", title: "All Calendars"), work = EnumOption(value: "/h/work", title: "Work")
        let validated = Self.manifest([all])
        var served = Self.manifest([all, work], title: "Changed")
        served.widgets[0].parameters[1].options = []
        let merged = PluginRegistry.withEntityOptions(validated, from: served)
        #expect(merged.widgets[0].parameters[0].options == [all, work])
        #expect(merged.widgets[0].parameters[0].defaultValue == .string(""))
        #expect(merged.widgets[0].displayName == "Up Next")
        #expect(merged.widgets[0].parameters[1] == validated.widgets[0].parameters[1])
    }
}
