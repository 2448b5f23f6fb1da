#!/usr/bin/python3
"""A fake NetworkManager for the Network widget's tests (NetworkManagerReaderTests,
NetworkSSIDTests): owns org.freedesktop.NetworkManager on the bus at ADDRESS and serves the
properties the widget reads, from a state given as JSON:

    fake_networkmanager.py ADDRESS STATE_JSON [READY_FILE]

STATE_JSON is a list of active connections, each
    {"interface": "wlp2s0", "type": "802-11-wireless", "id": "Home", "state": 2,
     "ssid": [72, 111, 109, 101], "strength": 72}
("ssid"/"strength" absent: no access point, SpecificObject "/"). The test switches network with
the method org.widgethost.test.FakeNetworkManager.SetState(s STATE_JSON) on the manager's path:
every object is made anew under new paths (as NetworkManager numbers a new activation), and the
manager emits PropertiesChanged for ActiveConnections, as the real one does; or with

    fake_networkmanager.py --switch ADDRESS STATE_JSON

which calls it and ends. READY_FILE is written once the name is owned. Ends when the bus goes
away.
"""
import json
import sys

from gi.repository import Gio, GLib

NM = "org.freedesktop.NetworkManager"
ROOT = "/org/freedesktop/NetworkManager"
XML = """<node>
<interface name="org.freedesktop.NetworkManager">
  <property name="ActiveConnections" type="ao" access="read"/>
  <property name="PrimaryConnection" type="o" access="read"/>
</interface>
<interface name="org.widgethost.test.FakeNetworkManager">
  <method name="SetState"><arg name="state" type="s" direction="in"/></method>
</interface>
<interface name="org.freedesktop.NetworkManager.Connection.Active">
  <property name="Type" type="s" access="read"/>
  <property name="Id" type="s" access="read"/>
  <property name="State" type="u" access="read"/>
  <property name="Devices" type="ao" access="read"/>
  <property name="SpecificObject" type="o" access="read"/>
</interface>
<interface name="org.freedesktop.NetworkManager.Device">
  <property name="Interface" type="s" access="read"/>
</interface>
<interface name="org.freedesktop.NetworkManager.AccessPoint">
  <property name="Ssid" type="ay" access="read"/>
  <property name="Strength" type="y" access="read"/>
</interface>
</node>"""
INFO = Gio.DBusNodeInfo.new_for_xml(XML)


def iface(name):
    return INFO.lookup_interface(name)


class Fake:
    def __init__(self, connection, state):
        self.connection = connection
        self.generation = 0
        self.props = {}  # path -> {property: GLib.Variant}
        self.registrations = []
        self.active = []
        manager = {"ActiveConnections": lambda: GLib.Variant("ao", self.active),
                   "PrimaryConnection": lambda: GLib.Variant("o", self.active[0] if self.active else "/")}
        for name in (NM, "org.widgethost.test.FakeNetworkManager"):
            connection.register_object(ROOT, iface(name), self.call, lambda c, s, p, i, n: manager[n](), None)
        self.set_state(state)

    def get(self, connection, sender, path, interface, name):
        return self.props[path][name]

    def add(self, path, interface, values):
        self.props[path] = values
        self.registrations.append(self.connection.register_object(path, iface(interface), None, self.get, None))

    def set_state(self, state):
        for r in self.registrations:
            self.connection.unregister_object(r)
        self.registrations, self.props, self.active = [], {}, []
        self.generation += 1
        for n, c in enumerate(state):
            number = self.generation * 100 + n
            device = "%s/Devices/%d" % (ROOT, number)
            self.add(device, NM + ".Device", {"Interface": GLib.Variant("s", c["interface"])})
            ap = "/"
            if "ssid" in c:
                ap = "%s/AccessPoint/%d" % (ROOT, number)
                self.add(ap, NM + ".AccessPoint", {"Ssid": GLib.Variant("ay", bytes(c["ssid"])),
                                                   "Strength": GLib.Variant("y", c.get("strength", 0))})
            path = "%s/ActiveConnection/%d" % (ROOT, number)
            self.add(path, NM + ".Connection.Active", {
                "Type": GLib.Variant("s", c["type"]), "Id": GLib.Variant("s", c.get("id", "")),
                "State": GLib.Variant("u", c.get("state", 2)), "Devices": GLib.Variant("ao", [device]),
                "SpecificObject": GLib.Variant("o", ap)})
            self.active.append(path)
        changed = GLib.Variant("(sa{sv}as)", (NM, {"ActiveConnections": GLib.Variant("ao", self.active)}, []))
        self.connection.emit_signal(None, ROOT, "org.freedesktop.DBus.Properties", "PropertiesChanged", changed)

    def call(self, connection, sender, path, interface, method, parameters, invocation):
        try:
            self.set_state(json.loads(parameters.unpack()[0]))
            invocation.return_value(None)
        except (ValueError, KeyError, TypeError) as e:
            invocation.return_dbus_error("org.freedesktop.DBus.Error.InvalidArgs", str(e))


def main():
    flags = Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION
    if sys.argv[1] == "--switch":
        connection = Gio.DBusConnection.new_for_address_sync(sys.argv[2], flags, None, None)
        connection.call_sync(NM, ROOT, "org.widgethost.test.FakeNetworkManager", "SetState", GLib.Variant("(s)", (sys.argv[3],)),
                             None, Gio.DBusCallFlags.NONE, -1, None)
        return
    address, state = sys.argv[1], json.loads(sys.argv[2])
    connection = Gio.DBusConnection.new_for_address_sync(address, flags, None, None)
    connection.set_exit_on_close(False)
    loop = GLib.MainLoop()
    connection.connect("closed", lambda *a: loop.quit())
    fake = Fake(connection, state)
    # Owned after the objects are there: a test that waits for the name finds them.
    reply = connection.call_sync("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "RequestName",
                                 GLib.Variant("(su)", (NM, 4)), GLib.VariantType("(u)"), Gio.DBusCallFlags.NONE, -1, None)
    if reply.unpack()[0] != 1:
        sys.exit("cannot own " + NM)
    if len(sys.argv) > 3:
        with open(sys.argv[3], "w") as ready:
            ready.write("ready\n")
    loop.run()
    del fake


if __name__ == "__main__":
    main()
