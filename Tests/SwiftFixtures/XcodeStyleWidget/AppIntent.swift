//
//  AppIntent.swift
//  XcodeStyleWidget
//
//  An iOS widget extension as Xcode's template writes it, grown into a small budget widget:
//  nothing in this folder is changed for Linux, not even the imports. Built untouched by the
//  package; Tests/IntegrationTests/AppleModuleBundleTests.swift drives it.
//

import WidgetKit
import AppIntents

struct ConfigurationAppIntent: WidgetConfigurationIntent {
    static var title: LocalizedStringResource = "Configuration"
    static var description = IntentDescription("This is an example widget.")

    // An example configurable parameter.
    @Parameter(title: "Favorite Emoji", default: "😃")
    var favoriteEmoji: String
}
