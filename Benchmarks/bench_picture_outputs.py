#!/usr/bin/env python3
"""The daemon's picture outputs (issue 12, item 5). Run through scripts/bench-picture-outputs.sh,
which builds the release host, the render process and the example bundles.

  P1  host CPU per --duration s (default 60) with 10 widgets with a png output (one a ticking
      live timer, the others the example bundles' widgets), against the same 10 widgets with
      text outputs only. CPU is utime+stime from /proc of the host and every descendant (its
      workers, the render process), sampled after a --settle s start-up and again --duration s
      later, so start-up is not counted. Also the render process's RSS.
  P2  latency from a container write (the Habit bundle's defaults.json, renamed into place) to
      the new out/<id>.png renamed into place (out/ on /dev/shm, as for bench.py's W2): --writes writes, each waiting for its
      picture, a pause between writes so each is the first of its burst (the throttle's
      leading edge). p50 / p90 / max.
  P3  widgethost-desktop under Xvfb next to the host (the 10 png widgets on its grid): its CPU
      over --duration s and its RSS, idle (the nine widgets without the timer) and while the
      timer ticks (all ten). Skipped when Xvfb or widgethost-desktop is missing.

Each figure is printed as a Markdown table (and written to --out).
"""
import argparse
import json
import os
import random
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench import descendants  # noqa: E402  (pid and its descendants, from /proc)

TICK = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid):
    """{pid: (comm, user+sys seconds)} of pid and its descendants."""
    out = {}
    for p in descendants(pid):
        try:
            with open(f"/proc/{p}/stat") as f:
                text = f.read()
            comm = text[text.index("(") + 1:text.rindex(")")]
            fields = text.rsplit(")", 1)[1].split()
            out[p] = (comm, (int(fields[11]) + int(fields[12])) / TICK)
        except (OSError, ValueError, IndexError):
            pass
    return out


def rss_kib(pid):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


WIDGETS = [
    ("probe", "systemSmall"),                      # the ticking live timer
    ("InteractiveHabit", "systemSmall"),
    ("MyAppWidget", "systemSmall"),
    ("MyAppWidget", "systemMedium"),
    ("MyAppWidget", "accessoryRectangular"),
    ("com.example.StatsWidget", "systemSmall"),
    ("com.example.StatsWidget", "systemMedium"),
    ("heartRateWidget", "systemSmall"),
    ("heartRateWidget", "systemMedium"),
    ("clock", "systemSmall"),
]


class Host:
    def __init__(self, args, outputs, widgets=WIDGETS, desktop=False):
        self.dir = tempfile.mkdtemp(prefix="widgethost-picbench-")
        os.makedirs(self.dir + "/Plugins")
        for so in args.plugins:
            name = os.path.basename(so)
            shutil.copy(so, f"{self.dir}/Plugins/{name}")
        # Outputs on a tmpfs, as docs/config.md recommends for a bar (and as bench.py's W2 does).
        self.out_dir = tempfile.mkdtemp(prefix="widgethost-picbench-out-", dir="/dev/shm") if os.path.isdir("/dev/shm") else self.dir + "/out"
        config = {
            "paths": {"plugins": "Plugins", "out": self.out_dir, "containers": "containers", "state": "state",
                      "socket": "state/control.sock"},
            "widgets": [{"kind": k, "family": f, "outputs": outputs} for k, f in widgets],
            "defaults": {"minReloadSeconds": 0, "containerCoalesceMs": 100, "picture": {"scale": 2}},
        }
        if desktop:
            config["desktop"] = {"columns": 8, "scale": 1, "widgets": [f"{k}-{f}" for k, f in widgets]}
        with open(self.dir + "/config.json", "w") as f:
            json.dump(config, f)
        env = dict(os.environ, LC_ALL="C.UTF-8")
        self.proc = subprocess.Popen([args.host, "run", "--config", self.dir + "/config.json", "--no-budget",
                                      "--log-level", "warning"],
                                     stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                     stderr=open(self.dir + "/stderr.log", "w"), env=env)

    def out(self, name):
        return f"{self.out_dir}/{name}"

    def stop(self):
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        shutil.rmtree(self.dir, ignore_errors=True)
        shutil.rmtree(self.out_dir, ignore_errors=True)


def wait_for(predicate, timeout=30.0, step=0.0002):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(step)
    return False


def p1(args, rows):
    for label, outputs in [("png (10 pictures)", ["files", "png"]), ("text only", ["files"])]:
        runs = []
        for _ in range(args.reps):
            h = Host(args, outputs)
            try:
                want = ".png" if "png" in outputs else ".txt"
                ok = wait_for(lambda: all(os.path.exists(h.out(f"{k}-{f}{want}")) for k, f in WIDGETS), timeout=60, step=0.05)
                if not ok:
                    sys.exit(f"P1 {label}: not every output appeared; stderr:\n" + open(h.dir + "/stderr.log").read())
                time.sleep(args.settle)
                before = cpu_seconds(h.proc.pid)
                time.sleep(args.duration)
                after = cpu_seconds(h.proc.pid)
                total = sum(s for p, (c, s) in after.items()) - sum(before.get(p, ("", 0))[1] for p in after)
                host = after[h.proc.pid][1] - before[h.proc.pid][1]
                render = sum(s - before.get(p, ("", 0))[1] for p, (c, s) in after.items() if c.startswith("widgethost-rend"))
                render_rss = max([rss_kib(p) for p, (c, _) in after.items() if c.startswith("widgethost-rend")] or [0])
                runs.append((total, host, render, rss_kib(h.proc.pid), render_rss))
            finally:
                h.stop()
        med = lambda i: statistics.median(r[i] for r in runs)
        spread = lambda i: f"{min(r[i] for r in runs):.2f}–{max(r[i] for r in runs):.2f}"
        rows.append(f"| P1 {label}: CPU per {args.duration:.0f} s, whole tree | {med(0):.2f} s ({spread(0)}) |")
        rows.append(f"| P1 {label}: of which the host process | {med(1):.2f} s ({spread(1)}) |")
        if "png" in outputs:
            rows.append(f"| P1 {label}: of which the render process | {med(2):.2f} s ({spread(2)}) |")
            rows.append(f"| P1 {label}: render process RSS | {med(4) / 1024:.1f} MiB |")
        rows.append(f"| P1 {label}: host RSS | {med(3) / 1024:.1f} MiB |")


def p2(args, rows):
    widget = [("InteractiveHabit", "systemSmall")]
    h = Host(args, ["files", "png"], widgets=widget)
    png = h.out("InteractiveHabit-systemSmall.png")
    try:
        if not wait_for(lambda: os.path.exists(png), timeout=60, step=0.05):
            sys.exit("P2: no picture; stderr:\n" + open(h.dir + "/stderr.log").read())
        group = f"{h.dir}/containers/group.com.yourapp.shared"
        os.makedirs(group, exist_ok=True)
        time.sleep(1)
        txt = h.out("InteractiveHabit-systemSmall.txt")
        samples, text_samples = [], []
        for i in range(args.writes):
            ino, text_ino = os.stat(png).st_ino, os.stat(txt).st_ino
            tmp = group + "/.defaults.json.tmp"
            with open(tmp, "w") as f:
                json.dump({"completedCount": (i % 7) + 1}, f)  # differs from the last each time
            t0 = time.monotonic()
            os.rename(tmp, group + "/defaults.json")
            text_at = None

            def landed():
                nonlocal text_at
                if text_at is None and os.stat(txt).st_ino != text_ino:
                    text_at = time.monotonic()
                return os.stat(png).st_ino != ino

            if not wait_for(landed, timeout=10):
                sys.exit(f"P2: write {i} gave no new picture; stderr:\n" + open(h.dir + "/stderr.log").read())
            done = time.monotonic()
            samples.append((done - t0) * 1000)
            text_samples.append(((text_at or done) - t0) * 1000)
            time.sleep(0.25)
        for label, values in [("new PNG", samples), ("new .txt of the same widget", text_samples)]:
            values.sort()
            q = lambda p: values[min(len(values) - 1, int(p * len(values)))]
            rows.append(f"| P2 container write → {label} on disk (n={len(values)}) | p50 {statistics.median(values):.2f} ms, "
                        f"p90 {q(0.9):.2f} ms, min {values[0]:.2f}, max {values[-1]:.2f} ms |")
    finally:
        h.stop()


def p3(args, rows):
    desktop = os.path.join(os.path.dirname(args.host), "widgethost-desktop")
    if not shutil.which("Xvfb") or not os.path.exists(desktop):
        rows.append("| P3 widgethost-desktop | skipped (no Xvfb or no widgethost-desktop) |")
        return
    # A display of its own, away from the low numbers other sessions and tests take.
    xvfb, display = None, None
    for n in random.sample(range(200, 600), 20):
        if os.path.exists(f"/tmp/.X11-unix/X{n}") or os.path.exists(f"/tmp/.X{n}-lock"):
            continue
        xvfb = subprocess.Popen(["Xvfb", f":{n}", "-screen", "0", "1920x1080x24", "-nolisten", "tcp"],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if wait_for(lambda: os.path.exists(f"/tmp/.X11-unix/X{n}") or xvfb.poll() is not None, timeout=10, step=0.01) \
                and xvfb.poll() is None:
            display = f":{n}"
            break
        xvfb.wait()
    if display is None:
        rows.append("| P3 widgethost-desktop | skipped (no Xvfb display could be started) |")
        return
    try:
        for label, widgets in [("idle (9 widgets, nothing due)", WIDGETS[1:]), ("a timer ticking (10 widgets)", WIDGETS)]:
            h = Host(args, ["files", "png"], widgets=widgets, desktop=True)
            env = dict(os.environ, DISPLAY=display, GDK_BACKEND="x11", LC_ALL="C.UTF-8")
            env.pop("WAYLAND_DISPLAY", None)
            d = subprocess.Popen([desktop, "--config", h.dir + "/config.json"], env=env, stdin=subprocess.DEVNULL,
                                 stdout=subprocess.DEVNULL, stderr=open(h.dir + "/desktop.log", "w"))
            try:
                ok = wait_for(lambda: all(os.path.exists(h.out(f"{k}-{f}.png")) for k, f in widgets), timeout=60, step=0.05)
                if not ok or d.poll() is not None:
                    rows.append(f"| P3 widgethost-desktop, {label} | failed on display {display} (Xvfb exit {xvfb.poll()}, desktop exit {d.poll()}): "
                                + open(h.dir + "/desktop.log").read().strip().replace("\n", " ") + " |")
                    continue
                time.sleep(args.settle)
                before = cpu_seconds(d.pid)[d.pid][1]
                time.sleep(args.duration)
                after = cpu_seconds(d.pid)[d.pid][1]
                rows.append(f"| P3 widgethost-desktop, {label}: CPU per {args.duration:.0f} s, RSS | "
                            f"{after - before:.2f} s, {rss_kib(d.pid) / 1024:.1f} MiB |")
            finally:
                d.terminate()
                d.wait()
                h.stop()
    finally:
        xvfb.terminate()
        xvfb.wait()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--host", required=True)
    ap.add_argument("--plugins", nargs="+", required=True)
    ap.add_argument("--duration", type=float, default=60)
    ap.add_argument("--settle", type=float, default=5)
    ap.add_argument("--reps", type=int, default=1)
    ap.add_argument("--writes", type=int, default=60)
    ap.add_argument("--only", default="P1,P2,P3")
    ap.add_argument("--out")
    args = ap.parse_args()
    rows = ["| measure | result |", "| --- | --- |"]
    if "P2" in args.only:
        p2(args, rows)
    if "P1" in args.only:
        p1(args, rows)
    if "P3" in args.only:
        p3(args, rows)
    text = "\n".join(rows) + "\n"
    print(text)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
