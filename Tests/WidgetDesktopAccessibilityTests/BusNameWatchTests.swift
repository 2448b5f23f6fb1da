import Testing
@testable import WidgetDesktopAccessibility

/// The bus's answers about the gallery's name as libdbus carries them (marshalled into a real
/// message and read back, as `BusNameWatch` reads a reply or a signal), and the match rule that
/// asks for that name's `NameOwnerChanged` only.
@Suite struct BusNameWatchTests {
    static let name = "org.widgethost.Gallery"

    /// Read back from a real message, as the watch reads one.
    static func carried(_ values: [DBusValue]) throws -> [DBusArgument] { try PortalColorSchemeTests.carried(values) }

    @Test func anOwnerComingOrGoingIsTheGalleryOpeningOrClosing() throws {
        #expect(BusNameWatch.owned(afterNameOwnerChanged: try Self.carried([.string(Self.name), .string(""), .string(":1.7")]), name: Self.name) == true)
        #expect(BusNameWatch.owned(afterNameOwnerChanged: try Self.carried([.string(Self.name), .string(":1.7"), .string("")]), name: Self.name) == false)
        // Handed from one gallery to another: still open.
        #expect(BusNameWatch.owned(afterNameOwnerChanged: try Self.carried([.string(Self.name), .string(":1.7"), .string(":1.9")]), name: Self.name) == true)
    }

    @Test func anotherNameOrShapeIsNotTaken() throws {
        #expect(BusNameWatch.owned(afterNameOwnerChanged: try Self.carried([.string("org.widgethost.Other"), .string(""), .string(":1.7")]), name: Self.name) == nil)
        #expect(BusNameWatch.owned(afterNameOwnerChanged: try Self.carried([.string(Self.name), .string(":1.7")]), name: Self.name) == nil)
        #expect(BusNameWatch.owned(afterNameOwnerChanged: try Self.carried([.string(Self.name), .uint32(0), .string(":1.7")]), name: Self.name) == nil)
        #expect(BusNameWatch.owned(afterNameOwnerChanged: [], name: Self.name) == nil)
    }

    @Test func nameHasOwnersBooleanIsRead() throws {
        #expect(BusNameWatch.owned(inNameHasOwnerReply: try Self.carried([.bool(true)])) == true)
        #expect(BusNameWatch.owned(inNameHasOwnerReply: try Self.carried([.bool(false)])) == false)
        #expect(BusNameWatch.owned(inNameHasOwnerReply: try Self.carried([.string("yes")])) == nil)
        #expect(BusNameWatch.owned(inNameHasOwnerReply: []) == nil)
    }

    @Test func theMatchRuleNamesTheBusSignalAndTheNameOnly() {
        let rule = BusNameWatch.matchRule(for: Self.name)
        #expect(rule == "type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',member='NameOwnerChanged',"
                + "path='/org/freedesktop/DBus',arg0='org.widgethost.Gallery'")
    }

    @Test func noSessionBusIsOneLineAndNoWatch() {
        var lines: [String] = []
        let watch = BusNameWatch.connect(name: Self.name, what: "gallery open", environment: [:], log: { lines.append($0) })
        #expect(watch == nil)
        #expect(lines == ["gallery open: not followed (no session bus: DBUS_SESSION_BUS_ADDRESS is not set)"])
    }
}
