import OpenWidgetKit
import Testing
import WidgetRendering

/// iOS 17 replaces a home-screen widget without `containerBackground` by "Please adopt
/// containerBackground API" (issue 28 item 9): the check finds the modifier anywhere in the tree
/// (it is a preference on iOS) and asks it of the `system*` families alone.
@Suite struct ContainerBackgroundCheckTests {
    let bare = ViewNode.vstack([.text("12°"), .text("Berlin")])

    @Test func aHomeScreenViewWithoutItIsMissingIt() {
        for family in [WidgetFamily.systemSmall, .systemMedium, .systemLarge, .systemExtraLarge] {
            #expect(ContainerBackgroundCheck.isMissing(in: bare, family: family), "\(family)")
        }
    }

    @Test func accessoryFamiliesDoNotNeedIt() {
        for family in [WidgetFamily.accessoryCircular, .accessoryRectangular, .accessoryInline] {
            #expect(!ContainerBackgroundCheck.isMissing(in: bare, family: family), "\(family)")
        }
    }

    @Test func itCountsAnywhereInTheTree() {
        let nested = ViewNode.vstack([.text("12°"), ViewNode.text("Berlin").mod { $0.containerBackground = StyleSpec(name: "blue") }])
        #expect(!ContainerBackgroundCheck.isMissing(in: nested, family: .systemSmall))
        let root = bare.mod { $0.containerBackground = StyleSpec(rgba: [0, 0, 1, 1]) }
        #expect(!ContainerBackgroundCheck.isMissing(in: root, family: .systemMedium))
    }

    @Test func theLineIsAPortsChecklistItem() {
        #expect(ContainerBackgroundCheck.line(kind: "MyWidget", families: [.systemSmall, .systemMedium])
                == "MyWidget (systemSmall, systemMedium): no containerBackground — iOS 17 shows \"Please adopt containerBackground API\" "
                + "instead of this widget; add .containerBackground(for: .widget) { … }")
    }
}
