//
//  WaterWidget.swift
//  ResourcesWidget
//
//  A widget that takes its colours, image and words from its bundle, as an iOS widget does:
//  Assets.xcassets (colours Brand and Paper with dark variants, Ink in Display P3, image Dot
//  at 1x/2x/3x),
//  en.lproj / de.lproj Localizable.strings and the Widgets.xcstrings catalogue (a plural).
//  Compiled into the .so by the WidgetBundleSupport build plugin; driven by
//  Tests/IntegrationTests/BundleResourceTests.swift.
//

import WidgetKit
import SwiftUI

struct WaterEntry: TimelineEntry {
    let date: Date
    let cups: Int
}

struct WaterProvider: TimelineProvider {
    func placeholder(in context: Context) -> WaterEntry { WaterEntry(date: Date(), cups: 1) }
    func getSnapshot(in context: Context, completion: @escaping (WaterEntry) -> ()) {
        completion(WaterEntry(date: Date(), cups: 3))
    }
    func getTimeline(in context: Context, completion: @escaping (Timeline<WaterEntry>) -> ()) {
        completion(Timeline(entries: [WaterEntry(date: Date(), cups: 3)], policy: .never))
    }
}

struct WaterView: View {
    var entry: WaterEntry

    var body: some View {
        VStack(spacing: 6) {
            Image("Dot", bundle: .main)
            Text("greeting")
                .font(.headline)
                .foregroundStyle(Color("Brand"))
            Text("\(entry.cups) cups", tableName: "Widgets")
            Text(NSLocalizedString("footer", bundle: .main, comment: "The last line"))
                .font(.caption)
                .foregroundStyle(Color("Ink"))
        }
        .containerBackground(Color("Paper"), for: .widget)
    }
}

struct WaterWidget: Widget {
    var body: some WidgetConfiguration {
        StaticConfiguration(kind: "Water", provider: WaterProvider()) { entry in
            WaterView(entry: entry)
        }
        .configurationDisplayName(LocalizedStringResource("Water", table: "Widgets"))
        .description("Cups of water today.")
        .supportedFamilies([.systemSmall])
    }
}

/// Asks for a colour, an image and a string the bundle does not have: each is named by
/// `preview` and `validate`.
struct MissingView: View {
    var body: some View {
        VStack {
            Image("Nowhere")
            Text("no.such.key")
                .foregroundStyle(Color("Nope"))
        }
        .containerBackground(.white, for: .widget)
    }
}

struct MissingWidget: Widget {
    var body: some WidgetConfiguration {
        StaticConfiguration(kind: "Missing", provider: WaterProvider()) { _ in MissingView() }
            .supportedFamilies([.systemSmall])
    }
}

@main
struct ResourcesWidgetBundle: WidgetBundle {
    var body: some Widget {
        WaterWidget()
        MissingWidget()
    }
}
