#!/usr/bin/python3
"""A GTK 3 window "Text to drag" whose one button, "Drag this text", is a drag source offering
TEXT as text only (text/plain, UTF8_STRING; not application/x-widgethost-widget), for
GalleryDropTests: the lean surface must refuse such a drag. When the drag ends it writes to
RESULT_FILE "drag-end" after a drop a target took (or the bare root window: GTK's root-window
protocol), or "drag-failed <reason>" (no-target: the window under the pointer refused it).

With a MODE, a hostile source for WaylandGalleryDropTests instead: the window "Widget to drag",
its button "Drag this widget" offering only application/x-widgethost-widget (as a gallery tile
does) with bad data — stall: nothing for 8 s (the whole program sleeps when the data is asked
for); huge: 1 MiB; empty: nothing, the pipe closed at once.

usage: text_drag_source.py RESULT_FILE TEXT [stall|huge|empty]
"""
import sys
import time

import gi
gi.require_version("Gtk", "3.0")
gi.require_version("Gdk", "3.0")
from gi.repository import Gdk, Gtk  # noqa: E402

result, text = sys.argv[1], sys.argv[2]
mode = sys.argv[3] if len(sys.argv) > 3 else None
MIME = "application/x-widgethost-widget"


def write(line):
    with open(result, "w", encoding="utf-8") as f:
        f.write(line + "\n")


def hostile_data(widget, context, data, info, when):
    if mode == "stall":
        time.sleep(8)
    elif mode == "huge":
        data.set(Gdk.Atom.intern(MIME, False), 8, b"{" * (1 << 20))
    # "empty": no data set; GTK sends none.


window = Gtk.Window(title="Widget to drag" if mode else "Text to drag")
window.set_default_size(240, 120)
window.move(40, 600)
button = Gtk.Button(label="Drag this widget" if mode else "Drag this text")
if mode:
    button.drag_source_set(Gdk.ModifierType.BUTTON1_MASK, [Gtk.TargetEntry.new(MIME, 0, 0)], Gdk.DragAction.COPY)
    button.connect("drag-data-get", hostile_data)
else:
    button.drag_source_set(Gdk.ModifierType.BUTTON1_MASK, [], Gdk.DragAction.COPY)
    button.drag_source_add_text_targets()
    button.connect("drag-data-get", lambda w, ctx, data, info, time: data.set_text(text, -1))


FAILED = []


def failed(widget, context, why):
    FAILED.append(why)
    write("drag-failed " + why.value_nick)
    return False  # GTK's own animation of the failure


def ended(widget, context):
    # "drag-end" follows "drag-failed" too (and GDK calls a cancelled drag's drop succeeded).
    if not FAILED:
        write("drag-end")


button.connect("drag-failed", failed)
button.connect("drag-end", ended)
window.add(button)
window.connect("destroy", Gtk.main_quit)
window.show_all()
Gtk.main()
