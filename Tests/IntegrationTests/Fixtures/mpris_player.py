#!/usr/bin/python3
"""A minimal MPRIS player for NowPlayingWidgetTests, on the bus at $DBUS_SESSION_BUS_ADDRESS.

Usage: mpris_player.py NAME CALLS_FILE [STATUS]

Owns org.mpris.MediaPlayer2.NAME; implements org.mpris.MediaPlayer2 (Identity "Test Player")
and .Player over a fixed playlist of three tracks (fixed metadata, Position fixed at 42 s,
Rate 1): Next / Previous move along it (CanGoPrevious is false on the first track, CanGoNext
on the last), PlayPause / Play / Pause / Stop change PlaybackStatus; each emits
org.freedesktop.DBus.Properties.PropertiesChanged. Each method called is appended to
CALLS_FILE, one name a line. Its `mpris:artUrl` is $MPRIS_TEST_ART_URL (when empty or unset: a file
that does not exist); its Rate $MPRIS_TEST_RATE (default 1). Ends on SIGTERM.
"""
import os
import signal
import sys

from gi.repository import Gio, GLib

NAME = "org.mpris.MediaPlayer2." + sys.argv[1]
CALLS = sys.argv[2]
PATH = "/org/mpris/MediaPlayer2"
ROOT = "org.mpris.MediaPlayer2"
PLAYER = "org.mpris.MediaPlayer2.Player"

TRACKS = [
    ("Clair de Lune", ["Claude Debussy"], "Suite bergamasque", 302_000_000),
    ("Gymnopedie No. 1", ["Erik Satie"], "Trois Gymnopedies", 185_000_000),
    ("Spiegel im Spiegel", ["Arvo Part"], "Alina", 564_000_000),
]

XML = """<node>
<interface name="org.mpris.MediaPlayer2">
  <method name="Raise"/><method name="Quit"/>
  <property name="Identity" type="s" access="read"/>
  <property name="CanQuit" type="b" access="read"/>
  <property name="CanRaise" type="b" access="read"/>
  <property name="HasTrackList" type="b" access="read"/>
</interface>
<interface name="org.mpris.MediaPlayer2.Player">
  <method name="Next"/><method name="Previous"/><method name="PlayPause"/>
  <method name="Play"/><method name="Pause"/><method name="Stop"/>
  <property name="PlaybackStatus" type="s" access="read"/>
  <property name="Metadata" type="a{sv}" access="read"/>
  <property name="Position" type="x" access="read"/>
  <property name="Rate" type="d" access="read"/>
  <property name="CanGoNext" type="b" access="read"/>
  <property name="CanGoPrevious" type="b" access="read"/>
  <property name="CanPlay" type="b" access="read"/>
  <property name="CanPause" type="b" access="read"/>
  <property name="CanControl" type="b" access="read"/>
  <signal name="Seeked"><arg name="Position" type="x"/></signal>
</interface>
</node>"""

state = {"track": 0, "status": sys.argv[3] if len(sys.argv) > 3 else "Playing"}


def metadata():
    title, artist, album, length = TRACKS[state["track"]]
    return GLib.Variant("a{sv}", {
        "mpris:trackid": GLib.Variant("o", "/org/widgethost/test/track%d" % state["track"]),
        "xesam:title": GLib.Variant("s", title),
        "xesam:artist": GLib.Variant("as", artist),
        "xesam:album": GLib.Variant("s", album),
        "mpris:length": GLib.Variant("x", length),
        "mpris:artUrl": GLib.Variant("s", os.environ.get("MPRIS_TEST_ART_URL") or "file:///tmp/widgethost-test-no-such-art.png"),
    })


def player_properties():
    t = state["track"]
    return {
        "PlaybackStatus": GLib.Variant("s", state["status"]),
        "Metadata": metadata(),
        "Position": GLib.Variant("x", 42_000_000),
        "Rate": GLib.Variant("d", float(os.environ.get("MPRIS_TEST_RATE") or "1")),
        "CanGoNext": GLib.Variant("b", t < len(TRACKS) - 1),
        "CanGoPrevious": GLib.Variant("b", t > 0),
        "CanPlay": GLib.Variant("b", True),
        "CanPause": GLib.Variant("b", True),
        "CanControl": GLib.Variant("b", True),
    }


ROOT_PROPERTIES = {
    "Identity": GLib.Variant("s", "Test Player"),
    "CanQuit": GLib.Variant("b", False),
    "CanRaise": GLib.Variant("b", False),
    "HasTrackList": GLib.Variant("b", False),
}

connection = None


def changed(names):
    props = player_properties()
    body = GLib.Variant("(sa{sv}as)", (PLAYER, {n: props[n] for n in names}, []))
    connection.emit_signal(None, PATH, "org.freedesktop.DBus.Properties", "PropertiesChanged", body)
    connection.flush_sync(None)


def on_call(conn, sender, path, interface, method, params, invocation):
    with open(CALLS, "a") as f:
        f.write(method + "\n")
    if interface == PLAYER:
        if method == "Next" and state["track"] < len(TRACKS) - 1:
            state["track"] += 1
            changed(["Metadata", "CanGoNext", "CanGoPrevious"])
        elif method == "Previous" and state["track"] > 0:
            state["track"] -= 1
            changed(["Metadata", "CanGoNext", "CanGoPrevious"])
        elif method in ("PlayPause", "Play", "Pause", "Stop"):
            new = {"PlayPause": "Paused" if state["status"] == "Playing" else "Playing",
                   "Play": "Playing", "Pause": "Paused", "Stop": "Stopped"}[method]
            state["status"] = new
            changed(["PlaybackStatus"])
    invocation.return_value(None)


def on_get(conn, sender, path, interface, name):
    return (ROOT_PROPERTIES if interface == ROOT else player_properties())[name]


def on_bus(conn, name):
    global connection
    connection = conn
    info = Gio.DBusNodeInfo.new_for_xml(XML)
    for i in info.interfaces:
        conn.register_object(PATH, i, on_call, on_get, None)


def on_name(conn, name):
    print("ready", flush=True)


def on_lost(conn, name):
    print("lost " + name, flush=True)
    sys.exit(1)


loop = GLib.MainLoop()
GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, signal.SIGTERM, loop.quit)
Gio.bus_own_name(Gio.BusType.SESSION, NAME, Gio.BusNameOwnerFlags.DO_NOT_QUEUE, on_bus, on_name, on_lost)
loop.run()
