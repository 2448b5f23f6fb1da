import Testing
import WidgetDesktopScene

@Suite struct DisplayGeometryTests {
    @Test func anOutputKeepsItsIdentity() {
        let o = DisplayOutput(id: 3, connector: "DP-1", make: "Dell", model: "U2720Q", serial: "ABC", logicalWidth: 2560, logicalHeight: 1440, scale: 1.5)
        #expect(o.connector == "DP-1" && o.serial == "ABC" && o.scale == 1.5 && !o.isPrimary)
    }
}
