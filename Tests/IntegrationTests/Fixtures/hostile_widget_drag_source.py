#!/usr/bin/python3
"""A GTK 3 window "Widget to drag" whose one button, "Drag this widget", is a drag source offering
only application/x-widgethost-widget (as a gallery tile does) but sending bad data, for
WaylandGalleryDropTests' hostile drags:

  stall   sends nothing for 8 s (the whole program sleeps when the data is asked for)
  huge    sends 1 MiB
  empty   sends nothing and closes at once

When the drag ends it writes to RESULT_FILE "drag-end" (a target took the drop) or
"drag-failed <reason>".

usage: hostile_widget_drag_source.py RESULT_FILE MODE
"""
import sys
import time

import gi
gi.require_version("Gtk", "3.0")
gi.require_version("Gdk", "3.0")
from gi.repository import Gdk, Gtk  # noqa: E402

result, mode = sys.argv[1], sys.argv[2]
MIME = "application/x-widgethost-widget"


def write(line):
    with open(result, "w", encoding="utf-8") as f:
        f.write(line + "\n")


def data_get(widget, context, data, info, when):
    if mode == "stall":
        time.sleep(8)
    elif mode == "huge":
        data.set(Gdk.Atom.intern(MIME, False), 8, b"{" * (1 << 20))
    # "empty": no data set; GTK sends none.


window = Gtk.Window(title="Widget to drag")
window.set_default_size(240, 120)
button = Gtk.Button(label="Drag this widget")
button.drag_source_set(Gdk.ModifierType.BUTTON1_MASK, [Gtk.TargetEntry.new(MIME, 0, 0)], Gdk.DragAction.COPY)
button.connect("drag-data-get", data_get)
FAILED = []


def failed(widget, context, why):
    FAILED.append(why)
    write("drag-failed " + why.value_nick)
    return False


def ended(widget, context):
    if not FAILED:
        write("drag-end")


button.connect("drag-failed", failed)
button.connect("drag-end", ended)
window.add(button)
window.connect("destroy", Gtk.main_quit)
window.show_all()
Gtk.main()
