"""The desktop path against conky (issue 26), run by bench.py (`--only W8,W9`).

  W8  one ticking clock on the desktop: `widgethost run` with one widget (the Swift system
      bundle's `clock`, systemSmall, outputs none: the desktop only) and the lean
      `widgethost-desktop` (X11, scale 2) drawing it from the view stream; against conky with
      `own_window_type override`, `update_interval 1`, a 28 pt clock, the date and `${cpu}`.
      The plugins folder is the repository's Plugins/ as scripts/install-plugins.sh fills it (the
      six bundles; unplaced bundles keep no worker).
  W9  ten widgets on the desktop, one ticking: the clock and nine of the benchmark plugin's file
      widgets (systemSmall, their files unchanged); against conky showing the clock, the date and
      nine `${cat FILE}` items. Then the latency from a container write to the new pixels on
      screen: the surface runs with WIDGETHOST_DESKTOP_FRAME_LOG (a line per frame, after an
      XSync, naming what changed) and the benchmark rewrites file1 --latency-changes times.

Each program runs alone on an Xvfb of its own (one after the other, interleaved per repetition),
so the X server's CPU can be given per program too. Figures over t = 5 .. 5 + --duration s after
the last process of the set-up started: CPU (user + sys, /proc/PID/task/*/schedstat of every
process of each tree plus what each reaped), PSS summed over every process of each tree
(/proc/PID/smaps_rollup) and the process count at the end of the window. A screenshot of the
root window of each program's Xvfb is taken mid-window (ImageMagick `import`) into
Benchmarks/screens/.
"""
import contextlib
import glob
import json
import os
import shutil
import signal
import statistics
import subprocess
import tempfile
import time

import bench as b

SCREENS = os.path.join(b.ROOT, "Benchmarks", "screens")


# ---------------------------------------------------------------- processes

def pss_kib(pid):
    try:
        with open(f"/proc/{pid}/smaps_rollup") as f:
            for line in f:
                if line.startswith("Pss:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def rss_kib(pid):
    return b.proc_status(pid, "VmRSS")


def comm(pid):
    try:
        with open(f"/proc/{pid}/comm") as f:
            return f.read().strip()
    except OSError:
        return "?"


def tree_cpu_ns(pids):
    """CPU (ns) of every process of the trees rooted at `pids`, reaped children included."""
    return sum(b.schedstat_ns(p) + b.reaped_ns(p) for root in pids for p in b.descendants(root))


def per_process_ns(pids):
    """{pid: (comm, ns on the CPU of it and of the children it reaped)} over the trees."""
    return {p: (comm(p), b.schedstat_ns(p) + b.reaped_ns(p)) for root in pids for p in b.descendants(root)}


def tree_memory(pids):
    """[(comm, pid, PSS KiB, RSS KiB)] of every process of the trees rooted at `pids`."""
    return [(comm(p), p, pss_kib(p), rss_kib(p)) for root in pids for p in b.descendants(root)]


class Xvfb:
    """A private X server (`-displayfd`: it picks a free display number)."""

    def __init__(self, width, height):
        r, w = os.pipe()
        self.proc = subprocess.Popen(["Xvfb", "-displayfd", str(w), "-screen", "0", f"{width}x{height}x24", "-nolisten", "tcp",
                                      "-noreset"], pass_fds=(w,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                     start_new_session=True)
        os.close(w)
        number = b""
        while not number.endswith(b"\n"):
            chunk = os.read(r, 16)
            if not chunk:
                break
            number += chunk
        os.close(r)
        if not number.strip():
            raise RuntimeError("Xvfb did not start")
        self.display = ":" + number.decode().strip()

    def env(self, extra=None):
        e = dict(os.environ, DISPLAY=self.display)
        e.pop("WAYLAND_DISPLAY", None)
        e.update(extra or {})
        return e

    def shot(self, path):
        os.makedirs(os.path.dirname(path), exist_ok=True)
        subprocess.run(["import", "-display", self.display, "-window", "root", path],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=30)

    def stop(self):
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def start(argv, env, cwd=None, stderr=None):
    return subprocess.Popen(argv, env=env, cwd=cwd, stdout=subprocess.DEVNULL, stdin=subprocess.DEVNULL,
                            stderr=stderr or subprocess.DEVNULL, start_new_session=True)


def stop(proc):
    try:
        os.kill(proc.pid, signal.SIGTERM)
    except ProcessLookupError:
        pass
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    try:
        os.killpg(proc.pid, signal.SIGKILL)  # anything left in its session
    except ProcessLookupError:
        pass


def measure(roots, x, duration, shot_path=None, settle=5.0):
    """CPU of the trees and of the X server over `duration` s from `settle` s on; memory at the end."""
    time.sleep(settle)
    p0 = per_process_ns(roots)
    c0, x0, t0 = tree_cpu_ns(roots), b.schedstat_ns(x.proc.pid), time.monotonic()
    if shot_path:
        time.sleep(duration / 2)
        # The shot's own X server work is taken out of the X server's figure below.
        s0 = b.schedstat_ns(x.proc.pid)
        x.shot(shot_path)
        shot_ns = b.schedstat_ns(x.proc.pid) - s0
        time.sleep(max(0.0, duration - (time.monotonic() - t0)))
    else:
        shot_ns = 0
        time.sleep(duration)
    c1, x1, t1 = tree_cpu_ns(roots), b.schedstat_ns(x.proc.pid), time.monotonic()
    per60 = 60.0 / (t1 - t0)
    p1 = per_process_ns(roots)
    split = [(c, (ns - p0.get(p, (c, 0))[1]) / 1e9 * per60) for p, (c, ns) in p1.items()]
    memory = tree_memory(roots)
    return {"cpu": (c1 - c0) / 1e9 * per60, "xcpu": (x1 - x0 - shot_ns) / 1e9 * per60,
            "pss": sum(m[2] for m in memory) / 1024, "rss": sum(m[3] for m in memory) / 1024,
            "procs": len(memory), "memory": memory, "split": split}


# ---------------------------------------------------------------- conky

CONKY_HEAD = """conky.config = {
  out_to_x = true, out_to_console = false, out_to_stderr = false,
  own_window = true, own_window_type = 'override', own_window_colour = '202830',
  alignment = 'top_left', gap_x = 32, gap_y = 32, minimum_width = 320,
  update_interval = 1, total_run_times = 0, background = false, double_buffer = false,
  use_xft = true, font = 'DejaVu Sans:size=12', default_color = 'ffffff',
}
"""


def conky_conf(d, files):
    lines = ["${font DejaVu Sans:bold:size=28}${time %H:%M:%S}${font}", "${time %A %d %B}", "CPU ${cpu}%"]
    lines += [f"${{cat {d}/file{i}.txt}}" for i in files]
    return CONKY_HEAD + "conky.text = [[\n" + "\n".join(lines) + "\n]]\n"


def run_conky(args, screen, files, shot):
    d = tempfile.mkdtemp(prefix="conky-desktop-bench-")
    b.w1_files(d)
    with open(f"{d}/conky.conf", "w") as f:
        f.write(conky_conf(d, files))
    x = Xvfb(*screen)
    try:
        p = start(["conky", "-q", "-c", f"{d}/conky.conf"], x.env())
        try:
            return measure([p.pid], x, args.duration, shot)
        finally:
            stop(p)
    finally:
        x.stop()
        shutil.rmtree(d, ignore_errors=True)


# ---------------------------------------------------------------- widgethost

class DesktopHost:
    """A temp set-up: Plugins/ (copies of `plugins`), containers/group.bench with the file
    widgets' files, out/ on /dev/shm, state, a private XDG_RUNTIME_DIR, and config.json."""

    def __init__(self, args, widgets, desktop, plugins):
        self.dir = tempfile.mkdtemp(prefix="widgethost-desktop-bench-")
        os.makedirs(f"{self.dir}/Plugins")
        for so in plugins:
            shutil.copy(so, f"{self.dir}/Plugins/{os.path.basename(so)}")
        self.files = f"{self.dir}/containers/group.bench"
        os.makedirs(self.files, mode=0o700)
        b.w1_files(self.files)
        self.runtime = f"{self.dir}/run"
        os.makedirs(self.runtime, mode=0o700)
        self.out_dir = tempfile.mkdtemp(prefix="widgethost-desktop-bench-out-", dir="/dev/shm") if os.path.isdir("/dev/shm") else f"{self.dir}/out"
        config = {"paths": {"plugins": "Plugins", "out": self.out_dir, "containers": "containers", "state": "state"},
                  "widgets": widgets, "desktop": desktop,
                  "defaults": {"outputs": [], "minReloadSeconds": 0}}
        self.config = f"{self.dir}/config.json"
        with open(self.config, "w") as f:
            json.dump(config, f, indent=1)
        self.host_bin = args.host
        self.desktop_bin = os.path.join(os.path.dirname(os.path.abspath(args.host)), "widgethost-desktop")

    def env(self, x, extra=None):
        return x.env(dict({"XDG_RUNTIME_DIR": self.runtime}, **(extra or {})))

    def start_host(self, x):
        p = start([self.host_bin, "run", "--config", self.config, "--log-level", "warning", "--no-budget"], self.env(x), cwd=self.dir)
        if not b.wait_for(lambda: glob.glob(f"{self.runtime}/widgethost/*.sock"), timeout=30, step=0.01):
            raise RuntimeError("the host's control socket did not appear")
        return p

    def start_desktop(self, x, extra_env=None):
        return start([self.desktop_bin, "--lean", "--config", self.config], self.env(x, extra_env), cwd=self.dir,
                     stderr=open(f"{self.dir}/desktop.log", "ab"))

    def cleanup(self):
        shutil.rmtree(self.dir, ignore_errors=True)
        shutil.rmtree(self.out_dir, ignore_errors=True)


CLOCK = {"id": "clock", "kind": "clock", "family": "systemSmall", "bundle": "org.widgethost.system"}


def installed_plugins(args):
    """The plugins folder as scripts/install-plugins.sh fills it; at least the system bundle."""
    found = sorted(glob.glob(os.path.join(args.plugins_dir, "*.so")))
    if not any(os.path.basename(p) == "SystemWidgets.so" for p in found) and args.system:
        found.append(args.system)
    return found


def w8_setup(args):
    return DesktopHost(args, [CLOCK], {"widgets": ["clock"], "anchor": "top-right", "scale": 2}, installed_plugins(args))


def w9_setup(args):
    files = [{"id": f"file{i}", "kind": f"file{i}", "family": "systemSmall", "bundle": "org.widgethost.bench"} for i in range(1, 10)]
    return DesktopHost(args, [CLOCK] + files,
                       {"widgets": ["clock"] + [f"file{i}" for i in range(1, 10)], "anchor": "top-right", "columns": 5, "scale": 2},
                       installed_plugins(args) + [args.plugin])


@contextlib.contextmanager
def widgethost(args, setup, screen, desktop_env=None):
    """The set-up running on its own Xvfb: yields (set-up, X server, host, surface), stops all after."""
    h = setup(args)
    x = Xvfb(*screen)
    try:
        host = h.start_host(x)
        desktop = h.start_desktop(x, desktop_env)
        try:
            yield h, x, host, desktop
        finally:
            stop(desktop)
            stop(host)
    finally:
        x.stop()
        h.cleanup()


def run_widgethost(args, setup, screen, shot):
    with widgethost(args, setup, screen) as (_, x, host, desktop):
        return measure([host.pid, desktop.pid], x, args.duration, shot)


# ---------------------------------------------------------------- latency

def frame_lines(path):
    try:
        with open(path) as f:
            text = f.read()
    except OSError:
        return []
    out = []
    for line in text.splitlines():
        words = line.split()
        if words and words[0].isdigit():
            out.append((int(words[0]), words[1:]))
    return out


def latency(args, screen):
    """Container write (file1.txt, temp + rename) → the surface's frame showing file1, ms."""
    lat = []
    log = tempfile.mktemp(prefix="widgethost-frames-", suffix=".log")
    try:
        with widgethost(args, w9_setup, screen, {"WIDGETHOST_DESKTOP_FRAME_LOG": log}) as (h, _, _, _):
            b.wait_for(lambda: any("file1" in w for _, w in frame_lines(log)), timeout=30, step=0.01)
            time.sleep(1)
            for i in range(args.latency_changes):
                t0 = time.clock_gettime_ns(time.CLOCK_MONOTONIC)
                b.write_atomic(f"{h.files}/file1.txt", f"change {i}\n")

                def shown():
                    return next((t for t, w in frame_lines(log) if t > t0 and "file1" in w), None)
                if b.wait_for(lambda: shown() is not None, timeout=5, step=0.0005):
                    lat.append((shown() - t0) / 1e6)
                time.sleep(0.25)
    finally:
        if os.path.exists(log):
            os.unlink(log)
    return lat


# ---------------------------------------------------------------- the workloads

def table(title, rows, note):
    ref = statistics.median(r["cpu"] for r in rows["conky"])
    ref_pss = statistics.median(r["pss"] for r in rows["conky"])
    lines = [title, "", note, "",
             "| program | CPU s per 60 s, whole tree | ratio to conky | X server CPU s per 60 s | PSS MB, whole tree | ratio to conky | RSS MB summed | processes |",
             "| --- | --- | --- | --- | --- | --- | --- | --- |"]
    for name, runs in rows.items():
        cpu = statistics.median(r["cpu"] for r in runs)
        pss = statistics.median(r["pss"] for r in runs)
        lines.append(f"| {name} | {b.median_spread([r['cpu'] for r in runs])} | {cpu / ref:.2f}× | "
                     f"{b.median_spread([r['xcpu'] for r in runs])} | {b.median_spread([r['pss'] for r in runs])} | {pss / ref_pss:.2f}× | "
                     f"{b.median_spread([r['rss'] for r in runs])} | {b.median_spread([r['procs'] for r in runs])} |")
    last = rows["widgethost"][-1]
    lines += ["", "widgethost's processes in the last run: CPU s per 60 s — " +
              ", ".join(f"{c} {cpu:.3f}" for c, cpu in last["split"]) + "; PSS / RSS MB at the end — " +
              ", ".join(f"{c} {p / 1024:.1f}/{r / 1024:.1f}" for c, _, p, r in last["memory"])]
    return "\n".join(lines)


def workload(args, results, name, screen, files, setup, what):
    rows = {"conky": [], "widgethost": []}
    for rep in range(args.reps):
        shot = (lambda who: os.path.join(SCREENS, f"{name}-{who}.png")) if rep == 0 else (lambda who: None)
        rows["conky"].append(run_conky(args, screen, files, shot("conky")))
        rows["widgethost"].append(run_widgethost(args, setup, screen, shot("widgethost")))
    note = (f"{what}; Xvfb {screen[0]}×{screen[1]}, each program on its own server, t = 5–{5 + args.duration:.0f} s, "
            f"{args.reps} run(s) interleaved, medians (ranges). Screenshots: Benchmarks/screens/{name}-conky.png, "
            f"{name}-widgethost.png.")
    results.append(table(f"### {name} — {what.split(':')[0]}", rows, note))


def w8(args, results):
    workload(args, results, "W8", (1280, 800), [], w8_setup,
             "one ticking clock on the desktop: the system bundle's clock (systemSmall, scale 2, no file output) "
             "in `widgethost run` + lean `widgethost-desktop`, against conky (override window, 28 pt clock, date, `${cpu}`)")


def w9(args, results):
    workload(args, results, "W9", (2560, 1440), range(1, 10), w9_setup,
             "ten widgets on the desktop, one ticking: the clock and nine file widgets (systemSmall, scale 2, 5 columns), "
             "against conky showing the clock, date, `${cpu}` and nine `${cat}` items")
    lat = latency(args, (2560, 1440))
    results.append("\n".join([
        f"### W9 latency — container write → new pixels on screen ({len(lat)} of {args.latency_changes} changes seen)", "",
        "From the benchmark's rename of `containers/group.bench/file1.txt` to the lean surface's frame showing file1 "
        "(its WIDGETHOST_DESKTOP_FRAME_LOG line, written after XSync: the X server has the new pixels); both CLOCK_MONOTONIC.", "",
        "| path | p50 ms | p99 ms | max ms |", "| --- | --- | --- | --- |",
        f"| widgethost → widgethost-desktop | {b.fmt(b.pct(lat, 50))} | {b.fmt(b.pct(lat, 99))} | {b.fmt(max(lat) if lat else float('nan'))} |"]))
