import OpenWidgetKit
import Testing
import WidgetDesktopScene
import WidgetHostCore

/// `desktop.output` / `desktop.outputs` resolved against the monitors connected (issue 24 item
/// 3): which widgets each output gets, where they are placed on it (exact rects), and how a
/// monitor unplugged, plugged back, or moved to another connector keeps its widgets.
@Suite struct OutputAssignmentTests {
    /// A laptop panel (primary, scale 2) and a Dell monitor on DP-1 at 1.5.
    let laptop = DisplayOutput(id: 10, connector: "eDP-1", make: "BOE", model: "0x095F", logicalWidth: 1280, logicalHeight: 800, scale: 2, isPrimary: true)
    let dell = DisplayOutput(id: 11, connector: "DP-1", make: "Dell Inc.", model: "DELL U2720Q", serial: "9XKL2",
                             logicalWidth: 2560, logicalHeight: 1440, scale: 1.5)
    let other = DisplayOutput(id: 12, connector: "DP-1", make: "LG", model: "27UK850", serial: "77", logicalWidth: 1920, logicalHeight: 1080, scale: 1)

    func placed(_ l: DesktopViewMessage.Layout, _ outputs: [DisplayOutput], _ a: inout OutputAssignment) -> [DisplayOutput.ID: [String]] {
        a.assign(l, to: outputs).widgets
    }

    @Test func theDefaultIsThePrimaryMonitorAndAllIsEveryOne() {
        var a = OutputAssignment()
        #expect(placed(layout(["a", "b"]), [dell, laptop], &a) == [10: ["a", "b"]])
        // No primary (Wayland says none): the first output.
        var second = laptop; second.isPrimary = false
        #expect(placed(layout(["a"]), [dell, second], &a) == [11: ["a"]])
        var all = layout(["a", "b"]); all.output = "all"; all.outputs = ["b": "primary"]
        #expect(placed(all, [dell, laptop], &a) == [10: ["a", "b"], 11: ["a"]])
        let none = a.assign(layout(["a"]), to: [])
        #expect(none.widgets.isEmpty && none.waiting == ["primary": ["a"]])
    }

    @Test func aConnectorOrAnIdentityNamesOneMonitorAndTheRestWait() {
        var l = layout(["a", "b", "c", "d"])
        l.outputs = ["b": "DP-1", "c": "Dell Inc. DELL U2720Q 9XKL2", "d": "HDMI-A-1"]
        var a = OutputAssignment()
        let p = a.assign(l, to: [laptop, dell])
        #expect(p.widgets == [10: ["a"], 11: ["b", "c"]])
        #expect(p.waiting == ["HDMI-A-1": ["d"]])
        #expect(a.remembered == ["DP-1": "Dell Inc. DELL U2720Q 9XKL2"])
        #expect(OutputAssignment.identity(of: laptop) == "BOE 0x095F")
    }

    /// The Dell unplugged: its widgets wait (they do not fall onto the laptop, nor onto another
    /// monitor that takes DP-1); plugged back into DP-2 they follow it there.
    @Test func aMonitorsWidgetsWaitForItAndFollowItToAnotherConnector() {
        var l = layout(["a", "b"]); l.outputs = ["b": "DP-1"]
        var a = OutputAssignment()
        #expect(placed(l, [laptop, dell], &a) == [10: ["a"], 11: ["b"]])
        let gone = a.assign(l, to: [laptop])
        #expect(gone.widgets == [10: ["a"]] && gone.waiting == ["DP-1": ["b"]])
        #expect(placed(l, [laptop, other], &a) == [10: ["a"]])
        var moved = dell; moved.connector = "DP-2"; moved.id = 13
        #expect(placed(l, [laptop, other, moved], &a) == [10: ["a"], 13: ["b"]])
        // A monitor that says no make, model or serial is its connector.
        var b = OutputAssignment()
        let bare = DisplayOutput(id: 20, connector: "DP-1", logicalWidth: 800, logicalHeight: 600, scale: 1)
        #expect(placed(l, [laptop, bare], &b) == [10: ["a"], 20: ["b"]] && b.remembered.isEmpty)
        var bare2 = bare; bare2.id = 21
        #expect(placed(l, [laptop, bare2], &b) == [10: ["a"], 21: ["b"]])
        // Twins (a nested sway's outputs are all "wayland wayland"): known by connector, so the
        // one left when DP-1's goes does not take its widgets.
        let twin1 = DisplayOutput(id: 40, connector: "WL-1", make: "wayland", model: "wayland", logicalWidth: 800, logicalHeight: 600, scale: 1)
        var twin2 = twin1; twin2.id = 41; twin2.connector = "DP-1"
        var c = OutputAssignment()
        #expect(placed(l, [twin1, twin2], &c) == [40: ["a"], 41: ["b"]] && c.remembered.isEmpty)
        #expect(placed(l, [twin1], &c) == [40: ["a"]])
        // A twin of a remembered monitor plugged in later: the one on the connector named wins.
        var d = OutputAssignment()
        #expect(placed(l, [laptop, dell], &d) == [10: ["a"], 11: ["b"]])
        var dellTwin = dell; dellTwin.id = 14; dellTwin.connector = "DP-3"
        #expect(placed(l, [laptop, dellTwin, dell], &d) == [10: ["a"], 11: ["b"]])
    }

    /// Each output's grid holds only its widgets, in grid order, at its own anchor and size:
    /// exact rects per output.
    @Test func eachOutputGetsItsOwnGridOfItsWidgets() throws {
        _ = SceneFonts.configured
        let s = DesktopScene()
        var l = layout(["a", "b", "m", "c"], anchor: "top-right", margin: 32)
        l.outputs = ["b": "DP-1", "c": "all"]
        var a = OutputAssignment()
        s.apply(snapshot([widget("a", view: nil), widget("b", view: nil), widget("m", .systemMedium, view: nil), widget("c", view: nil)], layout: l),
                now: fixedNow)
        s.setOutputs([laptop, dell], widgets: a.assign(l, to: [laptop, dell]).widgets)
        // Laptop: a c / m  — 338 × 354 at the top-right of 1280 × 800.
        #expect(s.area(on: 10) == LogicalRect(x: 1280 - 32 - 338, y: 32, width: 338, height: 354))
        #expect(s.placement(on: 10)?.widgets.map(\.id) == ["a", "m", "c"])
        #expect(s.placement(on: 10)?.frame(of: "a") == LogicalRect(x: 0, y: 0, width: 158, height: 158))
        #expect(s.placement(on: 10)?.frame(of: "m") == LogicalRect(x: 0, y: 196, width: 338, height: 158))
        #expect(s.placement(on: 10)?.frame(of: "c") == LogicalRect(x: 180, y: 0, width: 158, height: 158))
        // Dell: b c — 338 × 158 at the top-right of 2560 × 1440.
        #expect(s.area(on: 11) == LogicalRect(x: 2560 - 32 - 338, y: 32, width: 338, height: 158))
        #expect(s.placement(on: 11)?.widgets.map(\.frame) == [LogicalRect(x: 0, y: 0, width: 158, height: 158),
                                                             LogicalRect(x: 180, y: 0, width: 158, height: 158)])
        let pixels = try #require(s.placement(on: 11)).pixelSize(scale: 1.5)
        #expect(pixels == (507, 237))
        // Unplugged: the laptop keeps its grid, the Dell's output has none; back: as before.
        s.setOutputs([laptop], widgets: a.assign(l, to: [laptop]).widgets)
        #expect(s.area(on: 11) == nil && s.placement(on: 10)?.widgets.map(\.id) == ["a", "m", "c"])
        s.setOutputs([laptop, dell], widgets: a.assign(l, to: [laptop, dell]).widgets)
        #expect(s.area(on: 11) == LogicalRect(x: 2560 - 32 - 338, y: 32, width: 338, height: 158))
        #expect(s.needsFrame(on: 11))
        // An output no widget is for has no area.
        let lone = DisplayOutput(id: 30, connector: "HDMI-A-1", logicalWidth: 1920, logicalHeight: 1080, scale: 1)
        var only = layout(["a"]); only.outputs = ["a": "DP-1"]
        s.apply(snapshot([widget("a", view: nil)], layout: only), now: fixedNow)
        s.setOutputs([laptop, dell, lone], widgets: a.assign(only, to: [laptop, dell, lone]).widgets)
        #expect(s.area(on: 10) == nil && s.area(on: 30) == nil)
        #expect(s.area(on: 11) == LogicalRect(x: 32, y: 32, width: 158, height: 158))   // the layout helper anchors top-left
    }

    /// The layout carries the selectors on the view stream only when they differ from the default.
    @Test func theLayoutSaysEachWidgetsSelector() throws {
        var l = layout(["a", "b"])
        #expect(l.output(of: "a") == "primary")
        l.output = "all"; l.outputs = ["b": "DP-1"]
        #expect(l.output(of: "a") == "all" && l.output(of: "b") == "DP-1")
        let plain = String(decoding: try WireCodec.encode(layout(["a"])), as: UTF8.self)
        #expect(!plain.contains("output"), "\(plain)")
        let back = try WireCodec.decode(DesktopViewMessage.Layout.self, from: try WireCodec.encode(l))
        #expect(back == l)
    }

    /// An EDID base block as a monitor sends it: "DEL", product 0xA0F2, serial number 1234, a
    /// name descriptor and (in `withSerialText`) a serial one.
    static func edid(withSerialText: Bool) -> [UInt8] {
        var b = [UInt8](repeating: 0, count: 128)
        b[0..<8] = [0, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0]
        b[8] = 0x10; b[9] = 0xAC   // D=4 E=5 L=12: 00100 00101 01100
        b[10] = 0xF2; b[11] = 0xA0
        b[12] = 0xD2; b[13] = 0x04   // 1234
        func descriptor(_ at: Int, _ tag: UInt8, _ text: String) {
            b[at + 3] = tag
            let bytes = Array(text.utf8) + [0x0A] + [UInt8](repeating: 0x20, count: 13)
            b[(at + 5)..<(at + 18)] = bytes[0..<13]
        }
        descriptor(72, 0xFC, "DELL U2720Q")
        if withSerialText { descriptor(90, 0xFF, "9XKL2") }
        return b
    }

    @Test func anEDIDNamesTheMonitor() {
        let pnp = MonitorEDID.manufacturers(fromPNPIDs: "# comment\nDEL\tDell Inc.\nGSM\tLG Electronics\n")
        #expect(MonitorEDID(Self.edid(withSerialText: true), manufacturers: pnp) == MonitorEDID(make: "Dell Inc.", model: "DELL U2720Q", serial: "9XKL2"))
        #expect(MonitorEDID(Self.edid(withSerialText: false)) == MonitorEDID(make: "DEL", model: "DELL U2720Q", serial: "1234"))
        var nameless = Self.edid(withSerialText: false)
        nameless[75] = 0x10; nameless[12] = 0; nameless[13] = 0
        #expect(MonitorEDID(nameless) == MonitorEDID(make: "DEL", model: "0xA0F2", serial: ""))
        var bad = Self.edid(withSerialText: true); bad[1] = 0
        #expect(MonitorEDID(bad) == nil && MonitorEDID(Array(Self.edid(withSerialText: true).prefix(100))) == nil)
        var noMaker = Self.edid(withSerialText: true); noMaker[8] = 0; noMaker[9] = 0
        #expect(MonitorEDID(noMaker) == nil)
    }
}
