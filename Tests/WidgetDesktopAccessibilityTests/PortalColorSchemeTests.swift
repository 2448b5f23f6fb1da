import CDBus
import Testing
@testable import WidgetDesktopAccessibility

/// The portal's `color-scheme` values as libdbus carries them: each shape is marshalled into a
/// real message (`DBusValue.append`) and read back (`DBusArgument.arguments(of:)`) before it is
/// interpreted, as `PortalColorScheme` reads a reply or a signal.
@Suite struct PortalColorSchemeTests {
    /// `values` in a signal's body, read back as the surface reads any message.
    static func carried(_ values: [DBusValue]) throws -> [DBusArgument] {
        let message = try #require(dbus_message_new_signal("/org/freedesktop/portal/desktop", "org.freedesktop.portal.Settings", "SettingChanged"))
        defer { dbus_message_unref(message) }
        var iter = DBusMessageIter()
        dbus_message_iter_init_append(message, &iter)
        for v in values { try #require(v.append(to: &iter)) }
        return DBusArgument.arguments(of: message)
    }

    @Test(arguments: [(UInt32(1), true), (UInt32(2), false), (UInt32(0), false)])
    func readsReadsAndReadOnesShapes(value: UInt32, dark: Bool) throws {
        // Read (portal 1.16): v holding v holding u.
        #expect(PortalColorScheme.dark(fromPortalValue: try Self.carried([.variant(.variant(.uint32(value)))])) == dark)
        // ReadOne: v holding u.
        #expect(PortalColorScheme.dark(fromPortalValue: try Self.carried([.variant(.uint32(value))])) == dark)
    }

    @Test func anUnknownValueOrShapeIsNotAScheme() throws {
        #expect(PortalColorScheme.dark(fromPortalValue: try Self.carried([.variant(.uint32(3))])) == nil)
        #expect(PortalColorScheme.dark(fromPortalValue: try Self.carried([.variant(.string("prefer-dark"))])) == nil)
        #expect(PortalColorScheme.dark(fromPortalValue: try Self.carried([.variant(.double(1))])) == nil)
        #expect(PortalColorScheme.dark(fromPortalValue: []) == nil)
        #expect(PortalColorScheme.dark(fromPortalValue: try Self.carried([.uint32(1), .uint32(1)])) == nil)
    }

    /// The signal's namespace and key select it: GNOME's own key of the same name (a string, which
    /// the portal also relays) is not the colour scheme.
    @Test func onlyTheAppearanceNamespacesSignalIsTaken() throws {
        let ours = try Self.carried([.string("org.freedesktop.appearance"), .string("color-scheme"), .variant(.uint32(1))])
        let value = try #require(PortalColorScheme.colorSchemeValue(inSettingChanged: ours))
        #expect(PortalColorScheme.dark(fromPortalValue: value) == true)
        let gnome = try Self.carried([.string("org.gnome.desktop.interface"), .string("color-scheme"), .variant(.string("prefer-dark"))])
        #expect(PortalColorScheme.colorSchemeValue(inSettingChanged: gnome) == nil)
        let accent = try Self.carried([.string("org.freedesktop.appearance"), .string("accent-color"), .variant(.uint32(1))])
        #expect(PortalColorScheme.colorSchemeValue(inSettingChanged: accent) == nil)
    }
}
