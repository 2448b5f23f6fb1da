#!/usr/bin/python3
"""Drives widgethost-edit (or the lean widgethost-desktop) as a person would, for
Tests/IntegrationTests/EditorTests.swift and SurfaceAccessibilityTests.swift.

Runs inside a private session bus (dbus-run-session), where GTK's AT-SPI bridge and this script
meet on the bus at-spi-bus-launcher starts. It finds windows and controls by their accessible
names, moves the real pointer and presses real keys (XTest, through libatspi) on the X display
in $DISPLAY, and takes screenshots of the screen with ImageMagick's `import`.

usage: edit_driver.py SHOT_DIR STEP... -- PROGRAM ARG...

Steps, run in order (each waits up to 20 s for what it needs, then fails naming what it saw):
  window:TITLE              a window (frame) of the program named TITLE is showing
  gone:TITLE                no window named TITLE is showing
  anywindow:TITLE           a window named TITLE of any application is showing (one the program started)
  anygone:TITLE             no application shows a window named TITLE
  click:NAME                a left click in the middle of the showing control named NAME
  do:NAME:ACTION            performs the AT-SPI action named ACTION of the showing control NAME
  drag:NAME:TARGET          the real pointer pressed in the middle of NAME, moved in steps to the
                            middle of TARGET, released there
  dragto:NAME:TARGET:DX:DY  the same to the point DX, DY pixels from the middle of TARGET
  hold:NAME:TARGET:DX:DY    the same, the button still held at the end (a drag under way)
  release                   releases the button held
  movewindow:TITLE:X:Y      moves the window named TITLE (of any application) to X, Y (xdotool)
  desktopat:TARGET:DX:DY    the point DX, DY pixels from the middle of TARGET is the desktop's: the
                            window under the pointer there is the root window (a click reaches it)
  wldrag:NAME:TARGET        the same on Wayland, with the virtual pointer program named (with its
                            WIDTH HEIGHT arguments) by $WIDGETHOST_DRIVER_POINTER; a control in a
                            window sway manages is found on the screen through sway's tree (GTK
                            on Wayland knows no window position: its AT-SPI screen coordinates
                            are the window's), with sway's IPC socket in $WIDGETHOST_DRIVER_SWAYSOCK
                            TARGET "<OTHER": the grid's gap just left of OTHER (4 points left of
                            its left edge, at its middle height); "OTHER@DX,DY": DX, DY pixels
                            from the middle of OTHER (an empty slot beside it)
  wlhold:NAME:TARGET        wldrag without the release: the button stays down over TARGET
  wlrelease                 releases the button held by wlhold
  sway:COMMAND              runs the sway command COMMAND (swaymsg, $WIDGETHOST_DRIVER_SWAYSOCK),
                            again until sway takes it (a window may not be in its tree yet)
  settext:NAME:TEXT         sets the text of the entry NAME through AT-SPI (no keyboard)
  select:NAME:ITEM          selects ITEM of the combo box NAME through AT-SPI (no pointer)
  before:NAME:OTHER         NAME is before OTHER on the screen (left of it on its row, or above)
  remember:NAME             notes where the showing control NAME is on the screen now
  at:NAME:OTHER             NAME is where OTHER was when it was remembered (same rectangle)
  listen:TYPE               from now on, records the AT-SPI events of TYPE ("object:children-changed")
  heard:TYPE:NAME           an event of TYPE (or a subtype: "…:add") came from the object named NAME
  spawn:PATH ARG...          starts another program in the session (arguments split at spaces),
                            killed at the end (GalleryDropTests' text drag source); on the
                            Wayland display too, as the program
  scope:any|program         where the other steps look: any application (windows the program
                            started) or the program's own (the default)
  file:PATH:TEXT            the file PATH contains TEXT
  nofile:PATH:TEXT          the file PATH does not contain TEXT
  type:TEXT                 types TEXT on the keyboard
  key:KEY                   presses and releases one key (Return, Escape, Tab, a letter…), with
                            alt+KEY while Alt is held (a mnemonic)
  choose:NAME:ITEM          clicks the menu button (combo box) NAME, then its item ITEM
  showing:NAME              a control named NAME is showing: mapped and on the screen (AT-SPI's
                            SHOWING and VISIBLE; GTK leaves VISIBLE off when scrolled out of view)
  hidden:NAME               no control named NAME is showing
  text:WORDS                a showing label contains WORDS
  focused:NAME              the control named NAME (or a part of it) has the keyboard focus
  shot:FILE                 a screenshot of the whole screen, SHOT_DIR/FILE.png
  shotlacks:FILE:NAME:PNG   the screenshot FILE taken earlier did not show PNG where NAME was
                            remembered (the comparison of matches: more than 3 % of the pixels differ)
  matches:NAME:PNG          the screen where the control NAME is shows the picture PNG (ImageMagick's
                            compare, 8 % fuzz; at most 3 % of the pixels differ: the rounded corners)
  matchesat:NAME:DX:DY:PNG  the same DX, DY pixels away from where NAME is, over PNG's own size
  matchesbelowbadge:NAME:DX:DY:PNG  matchesat below the top 32 pixels of NAME and PNG (where edit
                            mode draws its remove badge)
  exit:STATUS               the program exits with STATUS
Prints one line per step; exits 1 at the first step that fails.

With $WIDGETHOST_DRIVER_WAYLAND set, the program runs on that Wayland display (the driver stays
off Wayland: libatspi would synthesize input there) and screenshots are grim's.
"""
import json
import os
import subprocess
import sys
import time

# libatspi (and at-spi2-registryd, so start the session bus without it too) synthesizes input for
# Wayland when WAYLAND_DISPLAY is set at all, even empty: this driver works the X display in
# $DISPLAY only.
os.environ.pop("WAYLAND_DISPLAY", None)
os.environ.setdefault("DBUS_FATAL_WARNINGS", "0")  # a stale object path from a closed window must not abort the driver
import warnings

import gi

# Atspi.Action.get_action_name is deprecated for get_name, which Python's binding hides behind
# Accessible's get_name.
warnings.filterwarnings("ignore", "Atspi.Action.get_action_name", DeprecationWarning)
gi.require_version("Atspi", "2.0")
from gi.repository import Atspi, GLib  # noqa: E402

PATIENCE = 20.0


def fail(message):
    print("FAILED: " + message, flush=True)
    sys.exit(1)


HEARD = []


def pump():
    """Delivers the AT-SPI events waiting (libatspi hands them over in GLib's main context)."""
    context = GLib.MainContext.default()
    while context.pending():
        context.iteration(False)


def eventually(what, probe):
    """probe() until it is true; `what` (text, or a function giving it: what is seen then) when never."""
    deadline = time.monotonic() + PATIENCE
    while True:
        pump()
        result = probe()
        if result:
            return result
        if time.monotonic() > deadline:
            fail(what() if callable(what) else what)
        time.sleep(0.1)


def application(pid):
    desktop = Atspi.get_desktop(0)
    for i in range(desktop.get_child_count()):
        app = desktop.get_child_at_index(i)
        try:
            if app is not None and app.get_process_id() == pid:
                return app
        except Exception:
            pass
    return None


def walk(node, depth=0):
    if node is None or depth > 60:
        return
    yield node
    try:
        count = node.get_child_count()
    except Exception:
        return
    for i in range(count):
        try:
            child = node.get_child_at_index(i)
        except Exception:
            continue
        yield from walk(child, depth + 1)


def showing(node):
    try:
        states = node.get_state_set()
        return states.contains(Atspi.StateType.SHOWING) and states.contains(Atspi.StateType.VISIBLE)
    except Exception:
        return False


def name(node):
    try:
        return node.get_name() or ""
    except Exception:
        return ""


def role(node):
    try:
        return node.get_role_name()
    except Exception:
        return "?"


class Session:
    def __init__(self, shots, program):
        self.shots = shots
        env = dict(os.environ)
        env.pop("NO_AT_BRIDGE", None)
        if os.environ.get("WIDGETHOST_DRIVER_WAYLAND"):
            env["WAYLAND_DISPLAY"] = os.environ["WIDGETHOST_DRIVER_WAYLAND"]
        self.process = subprocess.Popen(program, env=env)
        self.app = eventually("the program appeared on the accessibility bus", lambda: application(self.process.pid))
        self.scope = "program"
        self.remembered = {}
        self.held = None
        self.wl_held = None

    def nodes(self):
        if self.scope == "any":
            desktop = Atspi.get_desktop(0)
            apps = [desktop.get_child_at_index(i) for i in range(desktop.get_child_count())]
        else:
            apps = [application(self.process.pid)]
        out = []
        for app in apps:
            if app is None:
                continue
            try:
                Atspi.Accessible.clear_cache(app)
            except Exception:
                continue
            out += list(walk(app))
        return out

    def find(self, wanted, roles=None):
        for node in self.nodes():
            if name(node) == wanted and showing(node) and (roles is None or role(node) in roles):
                return node
        return None

    def seen(self):
        return sorted({"%s '%s'" % (role(n), name(n)) for n in self.nodes() if showing(n) and name(n)})

    def click_at(self, node):
        box = node.get_extents(Atspi.CoordType.SCREEN)
        x, y = box.x + box.width // 2, box.y + box.height // 2
        Atspi.generate_mouse_event(x, y, "abs")
        time.sleep(0.1)
        Atspi.generate_mouse_event(x, y, "b1c")

    def any_window(self, title):
        desktop = Atspi.get_desktop(0)
        for i in range(desktop.get_child_count()):
            app = desktop.get_child_at_index(i)
            if app is None:
                continue
            Atspi.Accessible.clear_cache(app)
            for node in walk(app):
                if name(node) == title and showing(node) and role(node) in ("frame", "dialog"):
                    return node
        return None

    def screenshot(self, path):
        if os.environ.get("WIDGETHOST_DRIVER_WAYLAND"):
            subprocess.run(["grim", path], check=True, env=dict(os.environ, WAYLAND_DISPLAY=os.environ["WIDGETHOST_DRIVER_WAYLAND"]))
        else:
            subprocess.run(["import", "-window", "root", path], check=True)

    def shows(self, wanted, png, dx=0, dy=0, own_size=False, top=0):
        node = self.find(wanted)
        if node is None:
            return False
        box = node.get_extents(Atspi.CoordType.SCREEN)
        box.x, box.y = box.x + dx, box.y + dy
        if own_size:
            size = subprocess.run(["identify", "-format", "%w %h", png], capture_output=True, text=True).stdout.split()
            if len(size) != 2:
                self.last_match = "no picture %s yet" % png
                return False
            box.width, box.height = int(size[0]), int(size[1])
        shot = os.path.join(self.shots, ".matches-%d.png" % os.getpid())
        self.screenshot(shot)
        return self.shot_shows(shot, wanted, (box.x, box.y, box.width, box.height), png, top)

    def shot_shows(self, shot, wanted, place, png, top=0):
        """Whether the screenshot `shot` shows `png` in the rectangle `place` (where `wanted` is),
        both without their top `top` rows."""
        x, y, width, height = place
        y, height = y + top, height - top
        crop = os.path.join(self.shots, ".matches-crop-%d.png" % os.getpid())
        subprocess.run(["convert", shot, "-crop", "%dx%d+%d+%d" % (width, height, x, y), "+repage", crop], check=True)
        if top:
            picture = os.path.join(self.shots, ".matches-picture-%d.png" % os.getpid())
            subprocess.run(["convert", png, "-crop", "%dx%d+0+%d" % (width, height, top), "+repage", picture], check=True)
            png = picture
        r = subprocess.run(["compare", "-metric", "AE", "-fuzz", "8%", crop, png, "null:"], capture_output=True, text=True)
        try:
            differing = float(r.stderr.split()[0])
        except (IndexError, ValueError):
            return False
        self.last_match = "%s at %s: %d of %d pixels differ from %s" % (wanted, place, differing, width * height, png)
        return differing <= width * height * 0.03

    def middle(self, node):
        box = node.get_extents(Atspi.CoordType.SCREEN)
        return box.x + box.width // 2, box.y + box.height // 2

    def wayland_middle(self, node):
        """middle() on the screen: plus the place sway gave the node's window, when sway manages
        it (a layer surface, the lean desktop surface, is not in sway's tree and says its own)."""
        x, y = self.middle(node)
        frame = node
        while frame is not None and role(frame) not in ("frame", "dialog"):
            frame = frame.get_parent()
        sock = os.environ.get("WIDGETHOST_DRIVER_SWAYSOCK")
        if frame is None or not sock:
            return x, y
        tree = json.loads(subprocess.run(["swaymsg", "-s", sock, "-t", "get_tree"], capture_output=True, text=True, check=True).stdout)
        pending = [tree]
        while pending:
            n = pending.pop()
            if n.get("name") == name(frame) and n.get("pid"):
                return x + n["rect"]["x"] + n["window_rect"]["x"], y + n["rect"]["y"] + n["window_rect"]["y"]
            pending += n.get("nodes", []) + n.get("floating_nodes", [])
        return x, y

    def settled_middle(self, wanted):
        """The middle of the showing control WANTED once it stays put for 0.3 s (a window just
        moved, tiles just filtered: their extents follow a moment later)."""
        last = [None]

        def same():
            now = self.middle(self.wait_for(wanted))
            if now == last[0]:
                return now
            last[0] = now
            time.sleep(0.3)
            return None
        return eventually("'%s' keeps moving" % wanted, same)

    def wait_for(self, wanted, roles=None):
        return eventually(lambda: "no showing control named '%s' (showing: %s)" % (wanted, "; ".join(self.seen())),
                          lambda: self.find(wanted, roles))

    def step(self, step):
        verb, _, rest = step.partition(":")
        if verb == "window":
            self.wait_for(rest, ("frame", "dialog"))
        elif verb == "gone":
            eventually("window '%s' still showing" % rest, lambda: self.find(rest, ("frame", "dialog")) is None)
        elif verb == "anywindow":
            eventually("no application shows a window '%s'" % rest, lambda: self.any_window(rest))
        elif verb == "anygone":
            eventually("window '%s' still showing" % rest, lambda: self.any_window(rest) is None)
        elif verb == "do":
            wanted, _, action = rest.rpartition(":")
            node = self.wait_for(wanted)
            names = [Atspi.Action.get_action_name(node, i) for i in range(Atspi.Action.get_n_actions(node))]
            if action not in names:
                fail("'%s' has no action '%s' (actions: %s)" % (wanted, action, ", ".join(names)))
            if not Atspi.Action.do_action(node, names.index(action)):
                fail("'%s' refused action '%s'" % (wanted, action))
        elif verb in ("drag", "dragto", "hold"):
            wanted, target, dx, dy = (rest.split(":") + ["0", "0"])[:4]
            x0, y0 = self.settled_middle(wanted)
            x1, y1 = self.settled_middle(target)
            x1, y1 = x1 + int(dx), y1 + int(dy)
            Atspi.generate_mouse_event(x0, y0, "abs")
            time.sleep(0.1)
            Atspi.generate_mouse_event(x0, y0, "b1p")
            for i in range(1, 11):
                time.sleep(0.05)
                Atspi.generate_mouse_event(x0 + (x1 - x0) * i // 10, y0 + (y1 - y0) * i // 10, "abs")
            # A hand is never quite still: two more moves once there, as the drag icon (a window
            # GTK moves after the pointer) has caught up, and the source looks for its target again.
            for x in (x1 + 1, x1):
                time.sleep(0.2)
                Atspi.generate_mouse_event(x, y1, "abs")
            time.sleep(0.1)
            self.held = (x1, y1)
            if verb != "hold":
                Atspi.generate_mouse_event(x1, y1, "b1r")
        elif verb == "movewindow":
            title, x, y = rest.rsplit(":", 2)
            subprocess.run(["xdotool", "search", "--name", "^%s$" % title, "windowmove", "--sync", x, y], check=True, capture_output=True)
        elif verb == "release":
            x, y = self.held
            Atspi.generate_mouse_event(x, y, "b1r")
        elif verb == "desktopat":
            target, dx, dy = rest.split(":")
            x, y = self.middle(self.wait_for(target))
            x, y = x + int(dx), y + int(dy)
            root = subprocess.run(["xdotool", "search", "--maxdepth", "0", ""], capture_output=True, text=True).stdout.split()

            def under():
                r = subprocess.run(["xdotool", "mousemove", str(x), str(y), "getmouselocation", "--shell"], capture_output=True, text=True)
                self.last_under = r.stdout.replace("\n", " ")
                return "WINDOW=%s" % root[0] in r.stdout if root else False
            self.last_under = "?"
            eventually(lambda: "the window under (%d, %d) is not the root window %s: %s" % (x, y, root, self.last_under), under)
        elif verb == "wlrelease":
            self.wl_held.stdin.write("release\n")
            self.wl_held.stdin.flush()
            if self.wl_held.stdout.readline().strip() != "released":
                fail("the virtual pointer did not release")
            self.wl_held.stdin.close()
            self.wl_held.wait(timeout=PATIENCE)
            self.wl_held = None
        elif verb == "shotlacks":
            shot, wanted, png = rest.split(":", 2)
            self.last_match = "nothing compared"
            if self.shot_shows(os.path.join(self.shots, shot + ".png"), wanted, self.remembered[wanted], png):
                fail("the screenshot %s shows %s where '%s' was remembered (%s)" % (shot, png, wanted, self.last_match))
        elif verb in ("wldrag", "wlhold"):
            wanted, _, target = rest.partition(":")
            x0, y0 = self.wayland_middle(self.wait_for(wanted))
            if target.startswith("<"):
                node = self.wait_for(target[1:])
                x1, y1 = self.wayland_middle(node)
                x1 -= node.get_extents(Atspi.CoordType.SCREEN).width // 2 + 4
            elif "@" in target:
                other, _, offset = target.partition("@")
                x1, y1 = self.wayland_middle(self.wait_for(other))
                x1, y1 = x1 + int(offset.split(",")[0]), y1 + int(offset.split(",")[1])
            else:
                x1, y1 = self.wayland_middle(self.wait_for(target))
            pointer = subprocess.Popen(os.environ["WIDGETHOST_DRIVER_POINTER"].split(), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                       env=dict(os.environ, WAYLAND_DISPLAY=os.environ["WIDGETHOST_DRIVER_WAYLAND"]), text=True)
            if pointer.stdout.readline().strip() != "ready":
                fail("no virtual pointer")
            hold = verb == "wlhold"
            pointer.stdin.write("%d %d %d %d%s\n" % (x0, y0, x1, y1, " hold" if hold else ""))
            pointer.stdin.flush()
            if pointer.stdout.readline().strip() != ("holding" if hold else "dragged"):
                fail("the virtual pointer did not drag")
            if hold:
                self.wl_held = pointer
            else:
                pointer.stdin.close()
                pointer.wait(timeout=PATIENCE)
        elif verb == "settext":
            entry, _, text = rest.partition(":")
            if not Atspi.EditableText.set_text_contents(self.wait_for(entry), text):
                fail("'%s' refused the text '%s'" % (entry, text))
        elif verb == "select":
            combo, _, item = rest.partition(":")
            box = self.wait_for(combo, ("combo box",))
            items = [name(n) for n in walk(box) if role(n) == "menu item"]
            if item not in items:
                fail("'%s' has no item '%s' (items: %s)" % (combo, item, ", ".join(items)))
            if not Atspi.Selection.select_child(box, items.index(item)):
                fail("'%s' refused to select '%s'" % (combo, item))
        elif verb == "before":
            wanted, _, other = rest.partition(":")

            def ordered():
                a, b = self.find(wanted), self.find(other)
                if a is None or b is None:
                    return False
                ea, eb = a.get_extents(Atspi.CoordType.SCREEN), b.get_extents(Atspi.CoordType.SCREEN)
                return (ea.y == eb.y and ea.x < eb.x) or ea.y + ea.height <= eb.y
            eventually("'%s' is not before '%s'" % (wanted, other), ordered)
        elif verb == "remember":
            box = self.wait_for(rest).get_extents(Atspi.CoordType.SCREEN)
            self.remembered[rest] = (box.x, box.y, box.width, box.height)
        elif verb == "at":
            wanted, _, other = rest.partition(":")
            place = self.remembered[other]

            def there():
                node = self.find(wanted)
                if node is None:
                    return False
                box = node.get_extents(Atspi.CoordType.SCREEN)
                self.last_place = (box.x, box.y, box.width, box.height)
                return self.last_place == place
            self.last_place = None
            eventually(lambda: "'%s' is at %s, not where '%s' was %s" % (wanted, self.last_place, other, place), there)
        elif verb == "listen":
            self.listener = Atspi.EventListener.new(lambda e: HEARD.append((e.type, name(e.source))))
            self.listener.register(rest)
            time.sleep(0.5)  # the registry tells the applications
        elif verb == "heard":
            kind, _, source = rest.rpartition(":")
            eventually(lambda: "no %s from '%s' (heard: %s)" % (kind, source, HEARD),
                       lambda: any(t.startswith(kind) and n == source for t, n in HEARD))
        elif verb == "matches":
            wanted, _, png = rest.partition(":")
            self.last_match = "'%s' not found" % wanted
            eventually(lambda: "the screen does not show %s where '%s' is (%s)" % (png, wanted, self.last_match), lambda: self.shows(wanted, png))
        elif verb in ("matchesat", "matchesbelowbadge"):
            wanted, dx, dy, png = rest.split(":", 3)
            top = 32 if verb == "matchesbelowbadge" else 0
            self.last_match = "'%s' not found" % wanted
            eventually(lambda: "the screen does not show %s %s, %s from '%s' (%s)" % (png, dx, dy, wanted, self.last_match),
                       lambda: self.shows(wanted, png, int(dx), int(dy), own_size=True, top=top))
        elif verb == "scope":
            self.scope = rest
        elif verb == "spawn":
            env = dict(os.environ)
            if os.environ.get("WIDGETHOST_DRIVER_WAYLAND"):
                env["WAYLAND_DISPLAY"] = os.environ["WIDGETHOST_DRIVER_WAYLAND"]
            SPAWNED.append(subprocess.Popen(rest.split(" "), env=env))
        elif verb == "sway":
            # Again until sway takes it: a window AT-SPI shows may not be in sway's tree yet.
            answer = []

            def taken():
                r = subprocess.run(["swaymsg", "-s", os.environ["WIDGETHOST_DRIVER_SWAYSOCK"], rest], capture_output=True, text=True)
                answer[:] = [r.stdout + r.stderr]
                return r.returncode == 0 and '"success": false' not in r.stdout
            eventually(lambda: "sway refused '%s': %s" % (rest, answer[0] if answer else ""), taken)
            # sway shows a move or resize once the window has drawn at its new size (a
            # transaction, at most 200 ms): the pointer finds the window there only then.
            time.sleep(0.5)
        elif verb in ("file", "nofile"):
            path, _, text = rest.partition(":")

            def contains():
                try:
                    with open(path, encoding="utf-8") as f:
                        return text in f.read()
                except OSError:
                    return False
            if verb == "file":
                eventually(lambda: "%s does not contain %s" % (path, text), contains)
            else:
                eventually(lambda: "%s still contains %s" % (path, text), lambda: not contains())
        elif verb == "click":
            self.click_at(self.wait_for(rest))
        elif verb == "type":
            time.sleep(0.2)
            Atspi.generate_keyboard_event(0, rest, Atspi.KeySynthType.STRING)
        elif verb == "key":
            time.sleep(0.2)
            modifier, _, key = rest.rpartition("+")
            keysym = {"Return": 0xFF0D, "Escape": 0xFF1B, "Tab": 0xFF09, "Down": 0xFF54, "space": 0x20}.get(key) or ord(key)
            if modifier:  # held down by its key code (Alt_L is 64 in the X server's default map)
                Atspi.generate_keyboard_event({"alt": 64}[modifier], None, Atspi.KeySynthType.PRESS)
            Atspi.generate_keyboard_event(keysym, None, Atspi.KeySynthType.SYM)
            if modifier:
                Atspi.generate_keyboard_event({"alt": 64}[modifier], None, Atspi.KeySynthType.RELEASE)
        elif verb == "choose":
            combo, _, item = rest.partition(":")
            self.click_at(self.wait_for(combo, ("combo box",)))
            self.click_at(self.wait_for(item, ("menu item",)))
            eventually("the menu of '%s' did not close" % combo, lambda: self.find(item, ("menu item",)) is None)
        elif verb == "showing":
            self.wait_for(rest)
        elif verb == "hidden":
            eventually("'%s' still showing" % rest, lambda: self.find(rest) is None)
        elif verb == "text":
            eventually(lambda: "no showing label contains '%s' (showing: %s)" % (rest, "; ".join(self.seen())), lambda: any(
                rest in name(n) for n in self.nodes() if showing(n) and role(n) == "label"))
        elif verb == "focused":
            # The control or a part of it (a combo box's focus is on its button).
            eventually("'%s' does not have the focus" % rest, lambda: any(
                n.get_state_set().contains(Atspi.StateType.FOCUSED) for n in walk(self.find(rest))))
        elif verb == "shot":
            time.sleep(0.5)  # the last frame drawn
            self.screenshot(os.path.join(self.shots, rest + ".png"))
        elif verb == "exit":
            try:
                status = self.process.wait(timeout=PATIENCE)
            except subprocess.TimeoutExpired:
                fail("the program did not exit (showing: %s)" % "; ".join(self.seen()))
            if status != int(rest):
                fail("the program exited with %d, not %s" % (status, rest))
        else:
            fail("unknown step " + step)
        print("ok " + step, flush=True)


SPAWNED = []


def main():
    args = sys.argv[1:]
    if "--" not in args or len(args) < 3:
        fail(__doc__)
    split = args.index("--")
    shots, steps, program = args[0], args[1:split], args[split + 1:]
    Atspi.init()
    session = Session(shots, program)
    try:
        for step in steps:
            session.step(step)
    finally:
        for p in [session.process] + SPAWNED:
            if p.poll() is None:
                p.kill()  # SIGKILL: a test runner may have left SIGTERM blocked for its children
                p.wait(timeout=10)


if __name__ == "__main__":
    main()
