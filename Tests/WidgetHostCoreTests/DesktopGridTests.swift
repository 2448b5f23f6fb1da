import FoundationEssentials
import OpenWidgetKit
import Testing
@testable import WidgetHostCore

/// The Home Screen grid of the desktop surface, and the click regions beside each picture, on
/// exact numbers.
@Suite struct DesktopGridTests {
    @Test func familiesFillSlotsRowByRowFirstFit() {
        let g = DesktopGrid(widgets: [("s1", .systemSmall), ("m", .systemMedium), ("s2", .systemSmall),
                                      ("l", .systemLarge), ("s3", .systemSmall)])
        func frame(_ id: String) -> [Double] { g.items.first { $0.id == id }.map { [$0.x, $0.y, $0.width, $0.height] } ?? [] }
        // Row 0: s1 and s2 (m does not fit beside s1); row 1: m; rows 2-3: l; row 4: s3.
        #expect(frame("s1") == [0, 0, 158, 158])
        #expect(frame("s2") == [180, 0, 158, 158])
        #expect(frame("m") == [0, 196, 338, 158])
        #expect(frame("l") == [0, 392, 338, 354], "a large widget is exactly two rows: 158 + 196")
        #expect(frame("s3") == [0, 784, 158, 158])
        #expect(g.width == 338 && g.height == 942)
    }

    @Test func accessoriesGoOnARowAboveTheGrid() {
        let g = DesktopGrid(widgets: [("small", .systemSmall), ("circ", .accessoryCircular), ("rect", .accessoryRectangular)],
                            columns: 4, gap: 10)
        #expect(g.items.map(\.id) == ["circ", "rect", "small"])
        #expect(g.items[0].x == 0 && g.items[0].y == 0)
        #expect(g.items[1].x == 86 && g.items[1].y == 0)
        #expect(g.items[2].y == 86, "the grid starts one gap below the accessory row")
        #expect(g.item(atX: 90, y: 10)?.id == "rect")
        #expect(g.item(atX: 80, y: 10) == nil, "in the gap")
    }

    @Test func aWideFamilyOnANarrowGridStillGetsARow() {
        let g = DesktopGrid(widgets: [("m", .systemMedium), ("s", .systemSmall)], columns: 1, gap: 22)
        #expect(g.items.map { [$0.x, $0.y] } == [[0, 0], [0, 196]])
        let bad = DesktopGrid(widgets: [("s", .systemSmall)], columns: 0, gap: .nan)
        #expect(bad.items.count == 1 && bad.width == 158)
    }

    /// The `desktop` section: values read, and a bad one rejected with its JSON path.
    @Test func theDesktopSectionIsReadAndBadValuesNamed() throws {
        func parse(_ json: String) throws(ConfigError) -> HostConfig {
            try ConfigParser.parse(Data(json.utf8), baseDirectory: "/etc/wh", environment: ["HOME": "/home/u"])
        }
        let ok = try parse(#"{"widgets":[{"kind":"k","family":"systemSmall"}],"desktop":{"widgets":["k-systemSmall"],"anchor":"bottom-left","margin":10,"columns":3}}"#)
        #expect(ok.desktop?.widgets == ["k-systemSmall"] && ok.desktop?.anchor == .bottomLeft)
        #expect(ok.desktop?.margin == 10 && ok.desktop?.columns == 3 && ok.desktop?.gap == 22)
        #expect(try parse("{}").desktop == nil)
        func error(_ json: String) -> String {
            do { _ = try parse(json); return "" } catch { return error.description }
        }
        #expect(error(#"{"widgets":[{"kind":"k","family":"systemSmall"}],"desktop":{"widgets":["nope"]}}"#).hasPrefix("desktop.widgets[0]: no widget \"nope\""))
        #expect(error(#"{"desktop":{"anchor":"middle"}}"#).hasPrefix("desktop.anchor: unknown anchor"))
        #expect(error(#"{"desktop":{"scale":0}}"#).hasPrefix("desktop.scale: must be between"))
        #expect(error(#"{"desktop":{"size":1}}"#).hasPrefix("desktop.size: unknown key"))
    }

    /// `desktop.output` and `desktop.outputs`: the monitors of the widgets, read as written, and
    /// each bad one refused with its JSON path and what would do.
    @Test func theDesktopsMonitorsAreReadAndBadOnesNamed() throws {
        func parse(_ json: String) throws(ConfigError) -> HostConfig {
            try ConfigParser.parse(Data(json.utf8), baseDirectory: "/etc/wh", environment: ["HOME": "/home/u"])
        }
        func error(_ json: String) -> String {
            do { _ = try parse(json); return "" } catch { return error.description }
        }
        let widgets = #""widgets":[{"kind":"a","family":"systemSmall"},{"kind":"b","family":"systemSmall"},{"kind":"c","family":"systemSmall"}]"#
        let d = try parse(#"{"# + widgets + #","desktop":{"widgets":["a-systemSmall","b-systemSmall"],"output":"all","outputs":{"b-systemSmall":"Dell Inc. DELL U2720Q 9XKL2"}}}"#).desktop
        #expect(d?.output == "all" && d?.outputs == ["b-systemSmall": "Dell Inc. DELL U2720Q 9XKL2"])
        #expect(try parse(#"{"desktop":{}}"#).desktop?.output == "primary")
        #expect(try parse(#"{"desktop":{}}"#).desktop?.outputs == [:])
        // Without a widget list, any widget of `widgets` may have a monitor.
        #expect(try parse(#"{"# + widgets + #","desktop":{"outputs":{"c-systemSmall":"DP-2"}}}"#).desktop?.outputs == ["c-systemSmall": "DP-2"])
        #expect(error(#"{"desktop":{"output":""}}"#) == #"desktop.output: must name an output: "primary", "all", a connector such as "DP-1", or a monitor's "make model serial""#)
        #expect(error(#"{"desktop":{"output":3}}"#) == "desktop.output: expected a string, found a number")
        #expect(error(#"{"desktop":{"output":"DP-1\n"}}"#).hasPrefix("desktop.output: not an output name"))
        #expect(error(#"{"desktop":{"outputs":["DP-1"]}}"#).hasPrefix("desktop.outputs: expected an object of widget id → output, found"))
        #expect(error(#"{"# + widgets + #","desktop":{"widgets":["a-systemSmall"],"outputs":{"c-systemSmall":"DP-1"}}}"#)
                == #"desktop.outputs.c-systemSmall: "c-systemSmall" is not in desktop.widgets (a-systemSmall)"#)
        #expect(error(#"{"# + widgets + #","desktop":{"outputs":{"zz":"DP-1"}}}"#)
                == #"desktop.outputs.zz: no widget "zz" in widgets (ids: a-systemSmall, b-systemSmall, c-systemSmall)"#)
        #expect(error(#"{"# + widgets + #","desktop":{"outputs":{"a-systemSmall":" "}}}"#).hasPrefix("desktop.outputs.a-systemSmall: must name an output"))
    }

    @Test func regionsHitTheTopmostControl() throws {
        let r = PictureRegions(width: 316, height: 316, scale: 2, regions: [
            .init(kind: "widgetURL", x: 0, y: 0, width: 316, height: 316, url: "myapp://habit"),
            .init(kind: "button", x: 24, y: 200, width: 120, height: 44, target: "0", title: "Log Habit"),
        ])
        #expect(r.hit(x: 30, y: 210)?.target == "0")
        #expect(r.hit(x: 200, y: 10)?.url == "myapp://habit")
        #expect(r.hit(x: 316, y: 10) == nil)
        #expect(r.hit(x: .nan, y: 10) == nil)
        let back = try #require(PictureRegions.decode(r.encoded()))
        #expect(back == r)
        #expect(PictureRegions.decode(Data("{\"width\":1".utf8)) == nil, "a torn file is not a regions file")
    }
}
