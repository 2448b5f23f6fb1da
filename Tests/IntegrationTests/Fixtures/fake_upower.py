#!/usr/bin/env python3
"""A stand-in for UPower (org.freedesktop.UPower), for the Batteries widget's tests.

Usage: fake_upower.py ADDRESS STATE_JSON

Connects to the bus at ADDRESS (the test's own dbus-daemon), owns org.freedesktop.UPower and
serves /org/freedesktop/UPower (EnumerateDevices; signals DeviceAdded, DeviceRemoved) and one
object per device of STATE_JSON, {"<object name>": {"Type": 2, "Percentage": 82.0, ...}}, at
/org/freedesktop/UPower/devices/<object name>, interface org.freedesktop.UPower.Device with the
properties given (the others take UPower's defaults). On SIGUSR1 it reads STATE_JSON again:
removed devices go with DeviceRemoved, new ones come with DeviceAdded, and a device's changed
properties are announced with org.freedesktop.DBus.Properties.PropertiesChanged, as UPower
does. Makes STATE_JSON.ready once it owns the name. Ends on SIGTERM.
"""
import json
import signal
import sys

import gi

gi.require_version("Gio", "2.0")
from gi.repository import Gio, GLib  # noqa: E402

address, state_path = sys.argv[1], sys.argv[2]
# The test process blocks signals, and its children inherit the mask: take SIGUSR1 and SIGTERM.
signal.pthread_sigmask(signal.SIG_SETMASK, [])
BUS_NAME = "org.freedesktop.UPower"
ROOT = "/org/freedesktop/UPower"
DEVICE = "org.freedesktop.UPower.Device"

# The properties the widget reads, with their D-Bus types and UPower's defaults.
TYPES = {"NativePath": ("s", ""), "Vendor": ("s", ""), "Model": ("s", ""), "Type": ("u", 0), "PowerSupply": ("b", False),
         "IsPresent": ("b", True), "State": ("u", 0), "Percentage": ("d", 0.0), "TimeToEmpty": ("x", 0),
         "TimeToFull": ("x", 0), "IconName": ("s", "")}

XML = """<node>
  <interface name="org.freedesktop.UPower">
    <method name="EnumerateDevices"><arg name="devices" type="ao" direction="out"/></method>
    <signal name="DeviceAdded"><arg name="device" type="o"/></signal>
    <signal name="DeviceRemoved"><arg name="device" type="o"/></signal>
  </interface>
  <interface name="org.freedesktop.UPower.Device">
""" + "".join(f'    <property name="{n}" type="{t}" access="read"/>\n' for n, (t, _) in TYPES.items()) + """  </interface>
</node>"""
info = Gio.DBusNodeInfo.new_for_xml(XML)
manager_info, device_info = info.interfaces[0], info.interfaces[1]

connection = Gio.DBusConnection.new_for_address_sync(
    address, Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION, None, None)
devices = {}        # object name -> properties
registrations = {}  # object name -> registration id


def path_of(name):
    return ROOT + "/devices/" + name


def read_state():
    with open(state_path) as f:
        return json.load(f)


def value(name, props):
    t, default = TYPES[name]
    return GLib.Variant(t, props.get(name, default))


def manager_call(conn, sender, path, interface, method, params, invocation):
    if method == "EnumerateDevices":
        invocation.return_value(GLib.Variant("(ao)", ([path_of(n) for n in sorted(devices)],)))
    else:
        invocation.return_dbus_error("org.freedesktop.DBus.Error.UnknownMethod", method)


def export(name):
    def get_property(conn, sender, path, interface, prop):
        return value(prop, devices.get(name, {}))
    registrations[name] = connection.register_object(path_of(name), device_info, None, get_property, None)


def emit(path, interface, member, params):
    connection.emit_signal(None, path, interface, member, params)


def reload(*_):
    new = read_state()
    for name in sorted(set(devices) - set(new)):
        connection.unregister_object(registrations.pop(name))
        del devices[name]
        emit(ROOT, BUS_NAME, "DeviceRemoved", GLib.Variant("(o)", (path_of(name),)))
    for name, props in sorted(new.items()):
        if name not in devices:
            devices[name] = props
            export(name)
            emit(ROOT, BUS_NAME, "DeviceAdded", GLib.Variant("(o)", (path_of(name),)))
            continue
        changed = {k: value(k, props) for k in TYPES if props.get(k) != devices[name].get(k)}
        devices[name] = props
        if changed:
            emit(path_of(name), "org.freedesktop.DBus.Properties", "PropertiesChanged",
                 GLib.Variant("(sa{sv}as)", (DEVICE, changed, [])))
    connection.flush_sync(None)
    return GLib.SOURCE_CONTINUE


connection.register_object(ROOT, manager_info, manager_call, None, None)
for name, props in sorted(read_state().items()):
    devices[name] = props
    export(name)

loop = GLib.MainLoop()


def owned(*_):
    open(state_path + ".ready", "w").close()


def lost(*_):
    print("lost the name", file=sys.stderr, flush=True)
    loop.quit()


Gio.bus_own_name_on_connection(connection, BUS_NAME, Gio.BusNameOwnerFlags.DO_NOT_QUEUE, owned, lost)
GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, signal.SIGUSR1, reload)
GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, signal.SIGTERM, lambda *_: loop.quit() or GLib.SOURCE_REMOVE)
loop.run()
