#!/usr/bin/env python3
"""WidgetHost benchmarks, side by side with i3blocks, i3status and conky (issue 6).

Run through scripts/bench.sh, which installs the peers and builds the release host. Every
workload runs the host and its peers in this one invocation, on this machine, one after the
other (never concurrently), so the ratios compare like with like.

  W1  clock every second + 10 widgets showing 10 small files that do not change, for --duration s
      (the peers poll the files every 5 s; the host watches them): CPU (user+sys of the whole
      process tree, children included), steady-state CPU per second from t = 5 s on (the main
      process, and the tree), and peak RSS per process. Ratios are to conky ${cat}.
  W1r W1 with the 10 files rewritten every 5 s (temp + rename): the peers poll them, the host
      reacts to inotify and asks its worker again.
  W1s W1 with the clock of the Swift system bundle (Examples/SystemWidgets, `clock`
      accessoryInline) instead of the C benchmark plugin's: a user's real set-up, two workers.
  W1i W1 with every bundle scripts/install-plugins.sh installed (--plugins-dir: the examples and
      the day-one widgets) in the host's Plugins/ beside the bench plugin, none of them placed:
      what installed but unused bundles cost the text path (issue 29).
  W2  latency from a file write to the updated output: the host's output file and its stdout,
      vs i3blocks polling (interval 1), i3blocks with `signal` (sent right after the write) and
      an i3blocks `persist` block fed by inotifywait. Those are timed from Python around its own
      write (ext4, ~0.5 ms) with 0.2-ms polling: a program that does nothing but react measures
      ~0.6 ms there. With --probes, W2 is also timed without either: `w2probe` writes the
      container file on tmpfs and waits on inotify for the output's rename, from the writer's
      rename returning; against the host and the C floor `w2floor` (inotify → read → temp +
      rename, in one process and via a worker process over a pipe: WidgetHost's two hops).
  W3  idle: widgets with nothing due, for --duration s: voluntary context switches (wake-ups)
      and CPU of the host and its workers.
  W4  entry-swap lateness: 10 widgets with one-second entries, >= 600 swaps, measured on the
      host's stdout (arrival time - entry date); and the reaction to a clock jump: W4 sets the
      system clock forward --clock-jump seconds (default 2) and 8 s later back again, and times
      each widget's first line after each jump (needs CAP_SYS_TIME; --clock-jump 0 skips it).
  W5  scale: 500 instances with 60-entry timelines: time to the first complete output, host
      RSS, CPU per second of steady swapping.
  W6  worker cold start (spawn + dlopen + first answer) and warm round trip.
  W8  one ticking clock on the desktop (widgethost run + the lean widgethost-desktop under Xvfb)
      against a conky window; W9 ten widgets on the desktop, one ticking, against conky with ten
      items, and the latency from a container write to the new pixels on screen: see
      Benchmarks/bench_desktop.py.
  W7  start-up: exec of `run` to the first complete output (all 11 widgets of W1 written), CPU of
      the host and its worker(s) at that moment (/proc/<pid>/schedstat), cold (empty state
      directory) and warm (the saved timelines of the previous run on screen first); and each start
      again, stopped as soon as its outputs are complete, for wait4's CPU of the whole tree (which
      includes processes that exited before: a describing child, a worker replaced).

CPU comes from wait4(2) on the process, which includes every descendant it reaped (the host's
workers, i3blocks' and conky's shell commands). Steady-state CPU comes from /proc/<pid>/schedstat
(nanoseconds on the CPU) of every process of the tree, plus what the processes reaped meanwhile
(cutime + cstime, in clock ticks). Each figure is the median of --reps runs with
the spread (min-max). Results go to stdout as a Markdown table (and to --out).
"""
import argparse
import calendar
import json
import os
import shutil
import signal
import statistics
import struct
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


# ---------------------------------------------------------------- helpers

def descendants(pid):
    """pid and all its descendants, from /proc."""
    children = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            children.setdefault(int(fields[1]), []).append(int(entry))
        except (OSError, IndexError):
            pass
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        todo.extend(children.get(p, []))
    return out


def proc_status(pid, key):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith(key + ":"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def tree_snapshot(pid):
    """Per-process peak RSS (KiB) and the sum of voluntary context switches of the tree."""
    pids = descendants(pid)
    rss = {p: proc_status(p, "VmHWM") for p in pids}
    switches = sum(proc_status(p, "voluntary_ctxt_switches") for p in pids)
    return rss, switches


class Run:
    """A process run for a fixed time, then stopped with SIGTERM and reaped with wait4."""

    def __init__(self, argv, env=None, stdout=subprocess.DEVNULL, stdin=subprocess.DEVNULL, cwd=None):
        self.proc = subprocess.Popen(argv, env=env, stdout=stdout, stderr=subprocess.DEVNULL, stdin=stdin, cwd=cwd,
                                     start_new_session=True)
        self.started = time.monotonic()

    def stop(self):
        rss, switches = tree_snapshot(self.proc.pid)
        try:
            os.kill(self.proc.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
        deadline = time.monotonic() + 10
        while True:
            pid, status, usage = os.wait4(self.proc.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() > deadline:
                os.killpg(self.proc.pid, signal.SIGKILL)
                pid, status, usage = os.wait4(self.proc.pid, 0)
                break
            time.sleep(0.01)
        self.proc.returncode = status
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)  # anything left in the session
        except ProcessLookupError:
            pass
        return {"cpu": usage.ru_utime + usage.ru_stime, "rss": rss, "switches": switches,
                "wall": time.monotonic() - self.started}


def write_atomic(path, text):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write(text)
    os.rename(tmp, path)


def median_spread(values):
    if not values:
        return "n/a"
    m = statistics.median(values)
    if len(values) == 1:
        return fmt(m)
    return f"{fmt(m)} ({fmt(min(values))}–{fmt(max(values))})"


def fmt(x):
    if x >= 100:
        return f"{x:.0f}"
    if x >= 10:
        return f"{x:.1f}"
    if x >= 1:
        return f"{x:.2f}"
    return f"{x:.3f}"


def have(program):
    return shutil.which(program) is not None


# ---------------------------------------------------------------- the host

class HostSetup:
    """A temp directory with Plugins/ (the bench plugin), containers, out and a config."""

    def __init__(self, host, plugin, widgets, stdout_jsonl=False, extra_defaults=None, outputs=None):
        self.dir = tempfile.mkdtemp(prefix="widgethost-bench-")
        self.host = host
        os.makedirs(f"{self.dir}/Plugins")
        shutil.copy(plugin, f"{self.dir}/Plugins/bench.so")
        self.files = f"{self.dir}/containers/group.bench"
        os.makedirs(self.files, mode=0o700)
        defaults = {"outputs": outputs or (["files", "stdout"] if stdout_jsonl else ["files"]), "minReloadSeconds": 0}
        defaults.update(extra_defaults or {})
        # Outputs on a tmpfs, as a bar setup would put them ($XDG_RUNTIME_DIR): on ext4 every
        # rename over an existing file flushes it to disk (auto_da_alloc), which would make W1
        # measure the disk, not the host. The peers write to a pipe.
        self.out_dir = tempfile.mkdtemp(prefix="widgethost-bench-out-", dir="/dev/shm") if os.path.isdir("/dev/shm") else f"{self.dir}/out"
        config = {"paths": {"plugins": "Plugins", "out": self.out_dir, "containers": "containers", "state": "state"},
                  "widgets": widgets, "defaults": defaults}
        with open(f"{self.dir}/config.json", "w") as f:
            json.dump(config, f)
        self.stdout_jsonl = stdout_jsonl
        # `--stdout` protocol: jsonl for the latency workloads; i3bar for W1's `stdout` row.
        self.stdout_format = "jsonl" if stdout_jsonl else None

    def argv(self):
        argv = [self.host, "run", "--config", f"{self.dir}/config.json", "--log-level", "warning"]
        if self.stdout_format:
            argv += ["--stdout", self.stdout_format]
        if HostSetup.no_budget is None:
            HostSetup.no_budget = "--no-budget" in subprocess.run([self.host, "run", "--help"], capture_output=True, text=True).stdout
        if HostSetup.no_budget:
            argv.append("--no-budget")
        return argv

    no_budget = None  # whether this build has `run --no-budget` (asked once)

    def out(self, widget_id):
        return f"{self.out_dir}/{widget_id}.txt"

    def cleanup(self):
        shutil.rmtree(self.dir, ignore_errors=True)
        shutil.rmtree(self.out_dir, ignore_errors=True)


def wait_for(predicate, timeout=10.0, step=0.005):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(step)
    return False


def read(path):
    try:
        with open(path) as f:
            return f.read()
    except OSError:
        return None


FILE_WIDGETS = [{"id": f"file{i}", "kind": f"file{i}", "family": "accessoryInline"} for i in range(10)]


# ---------------------------------------------------------------- W1

def w1_files(d):
    for i in range(10):
        write_atomic(f"{d}/file{i}.txt", f"file {i} v0\n")


class Rewriter(threading.Thread):
    """Rewrites the 10 files every 5 s (temp + rename) until stopped."""

    def __init__(self, d):
        super().__init__(daemon=True)
        self.d, self.stop_flag, self.version = d, threading.Event(), 0

    def run(self):
        while not self.stop_flag.wait(5):
            self.version += 1
            for i in range(10):
                write_atomic(f"{self.d}/file{i}.txt", f"file {i} v{self.version}\n")


def schedstat_ns(pid):
    """ns on the CPU of every thread of `pid` (/proc/<pid>/schedstat alone is its main thread's:
    a worker answers on a thread of its own)."""
    total = 0
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return 0
    for t in tasks:
        try:
            with open(f"/proc/{pid}/task/{t}/schedstat") as f:
                total += int(f.read().split()[0])
        except (OSError, ValueError, IndexError):
            pass
    return total


def reaped_ns(pid):
    """CPU of the children `pid` reaped (cutime + cstime), in ns (clock-tick resolution)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[13]) + int(fields[14])) * 1_000_000_000 // os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return 0


def cpu_sample(pid):
    """(ns on the CPU of `pid`, of the whole tree) now: schedstat of every live process plus what
    each reaped. A process that ended unreaped between two samples is lost (none of the measured
    tools leaves one)."""
    pids = descendants(pid)
    return schedstat_ns(pid), sum(schedstat_ns(p) + reaped_ns(p) for p in pids)


def w1_run(argv, files_dir, duration, env=None, cwd=None, rewrite=False, steady_from=5.0):
    rewriter = Rewriter(files_dir) if rewrite else None
    r = Run(argv, env=env, cwd=cwd)
    if rewriter:
        rewriter.start()
    time.sleep(steady_from)
    m0, t0, w0 = *cpu_sample(r.proc.pid), time.monotonic()
    time.sleep(max(0.0, duration - steady_from))
    m1, t1, w1_ = *cpu_sample(r.proc.pid), time.monotonic()
    if rewriter:
        rewriter.stop_flag.set()
    res = r.stop()
    res["steady_main"] = (m1 - m0) / 1e6 / (w1_ - w0)  # ms of CPU per s
    res["steady_tree"] = (t1 - t0) / 1e6 / (w1_ - w0)
    return res


def w1_host_setup(args, variant, outputs=None):
    if variant == "W1s":
        clock = {"id": "clock", "kind": "clock", "family": "accessoryInline", "bundle": "org.widgethost.system"}
        files = [dict(w, bundle="org.widgethost.bench") for w in FILE_WIDGETS]
        h = HostSetup(args.host, args.plugin, [clock] + files, outputs=outputs)
        shutil.copy(args.system, f"{h.dir}/Plugins/SystemWidgets.so")
        return h
    if variant == "W1i":
        # Pinned to the bench bundle: the system bundle, installed beside it, has a `clock` too.
        widgets = [dict(w, bundle="org.widgethost.bench") for w in [{"id": "clock", "kind": "clock", "family": "accessoryInline"}] + FILE_WIDGETS]
        h = HostSetup(args.host, args.plugin, widgets, outputs=outputs)
        for name in sorted(os.listdir(args.plugins_dir)):
            if name.endswith(".so"):
                shutil.copy(os.path.join(args.plugins_dir, name), f"{h.dir}/Plugins/{name}")
        return h
    return HostSetup(args.host, args.plugin, [{"id": "clock", "kind": "clock", "family": "accessoryInline"}] + FILE_WIDGETS,
                     outputs=outputs)


def w1_variant(args, results, variant):
    rewrite = variant == "W1r"
    rows = {}
    for rep in range(args.reps):
        for outputs in args.host_outputs.split(","):
            # `txt`: what a conky `${cat}` or polybar reader needs; `files`: .txt and .json;
            # `stdout`: the i3bar protocol on stdout and no file, as i3status and conky's lines
            # go to the bar (here all three to /dev/null).
            h = w1_host_setup(args, variant, outputs=[outputs])
            if outputs == "stdout":
                h.stdout_format = "i3bar"
            w1_files(h.files)
            rows.setdefault(f"widgethost (`{outputs}`)", []).append(w1_run(h.argv(), h.files, args.duration, rewrite=rewrite))
            h.cleanup()
        d = tempfile.mkdtemp(prefix="peer-bench-")
        w1_files(d)
        if have("conky"):
            for name, item in (("conky ${cat}", "${{cat {d}/file{i}.txt}}"), ("conky ${execi}", "${{execi 5 cat {d}/file{i}.txt}}")):
                if not peer(args, name):
                    continue
                text = "${time %H:%M:%S} " + " ".join(item.format(d=d, i=i) for i in range(10))
                conf = ("conky.config = { out_to_console = true, out_to_x = false, out_to_stderr = false, "
                        "update_interval = 1, background = false, total_run_times = 0, double_buffer = false }\n"
                        f"conky.text = [[\n{text}\n]]\n")
                open(f"{d}/conky.conf", "w").write(conf)
                rows.setdefault(name, []).append(w1_run(["conky", "-q", "-c", f"{d}/conky.conf"], d, args.duration, rewrite=rewrite))
        if have("i3status") and peer(args, "i3status"):
            conf = 'general {\n output_format = "none"\n interval = 1\n}\norder += "tztime local"\n' + "".join(
                f'order += "read_file f{i}"\n' for i in range(10)) + 'tztime local {\n format = "%H:%M:%S"\n}\n' + "".join(
                f'read_file f{i} {{\n path = "{d}/file{i}.txt"\n}}\n' for i in range(10))
            open(f"{d}/i3status.conf", "w").write(conf)
            rows.setdefault("i3status", []).append(w1_run(["i3status", "-c", f"{d}/i3status.conf"], d, args.duration, rewrite=rewrite))
        if have("i3blocks") and peer(args, "i3blocks"):
            conf = "[clock]\ncommand=date +%T\ninterval=1\n\n" + "".join(
                f"[f{i}]\ncommand=cat {d}/file{i}.txt\ninterval=5\n\n" for i in range(10))
            open(f"{d}/i3blocks.conf", "w").write(conf)
            rows.setdefault("i3blocks", []).append(w1_run(["i3blocks", "-c", f"{d}/i3blocks.conf"], d, args.duration, rewrite=rewrite))
        shutil.rmtree(d, ignore_errors=True)
    ref_name = "conky ${cat}" if "conky ${cat}" in rows else next(iter(rows))
    med = {name: {k: statistics.median(r[k] for r in runs) for k in ("cpu", "steady_main", "steady_tree")} for name, runs in rows.items()}
    ref = med[ref_name]

    def ratio(name, k):
        return f"{med[name][k] / ref[k]:.2f}×" if ref[k] > 0 else "n/a"
    what = {"W1": "the files do not change", "W1r": "the files rewritten every 5 s",
            "W1s": "the Swift system bundle's clock, the files do not change",
            "W1i": "the files do not change, every installed bundle beside it (unplaced)"}[variant]
    lines = [f"### {variant} — clock every 1 s + 10 file widgets, {what}; {args.duration:.0f} s, {args.reps} run(s)", "",
             f"CPU of the whole run (start-up included) and steady state (t = 5–{args.duration:.0f} s, ms of CPU per s); "
             f"ratios to {ref_name} in the same run.", "",
             "| program | CPU s, whole run (tree) | ratio | steady ms/s, main process | ratio | steady ms/s, tree | ratio | peak RSS per process (MiB) |",
             "| --- | --- | --- | --- | --- | --- | --- | --- |"]
    for name, runs in rows.items():
        rss = sorted(runs[-1]["rss"].values(), reverse=True)
        lines.append(f"| {name} | {median_spread([r['cpu'] for r in runs])} | {ratio(name, 'cpu')} | "
                     f"{median_spread([r['steady_main'] for r in runs])} | {ratio(name, 'steady_main')} | "
                     f"{median_spread([r['steady_tree'] for r in runs])} | {ratio(name, 'steady_tree')} | "
                     f"{', '.join(f'{k / 1024:.1f}' for k in rss[:8])} |")
    results.append("\n".join(lines))


def peer(args, name):
    """Whether --peers selects `name` (conky-cat, conky-execi, i3status, i3blocks)."""
    return name.replace(" ${", "-").rstrip("}") in args.peers.split(",")


def w1(args, results):
    w1_variant(args, results, "W1")


def w1r(args, results):
    w1_variant(args, results, "W1r")


def w1i(args, results):
    installed = [n for n in os.listdir(args.plugins_dir) if n.endswith(".so")] if os.path.isdir(args.plugins_dir) else []
    if not installed:
        results.append(f"### W1i — skipped: no bundles in {args.plugins_dir} (scripts/install-plugins.sh)")
        return
    w1_variant(args, results, "W1i")


def w1s(args, results):
    if not args.system:
        results.append("### W1s — skipped: no --system (libSystemWidgets.so)")
        return
    w1_variant(args, results, "W1s")


# ---------------------------------------------------------------- W2

def latencies_host(args):
    h = HostSetup(args.host, args.plugin, FILE_WIDGETS[:1], stdout_jsonl=True)
    w1_files(h.files)
    stdout_times = []
    r = Run(h.argv(), stdout=subprocess.PIPE)

    def reader():
        for line in r.proc.stdout:
            if b'"file0"' in line:
                stdout_times.append((time.perf_counter(), line))
    threading.Thread(target=reader, daemon=True).start()
    out = h.out("file0")
    wait_for(lambda: read(out) is not None)
    file_lat, out_lat = [], []
    for i in range(args.changes):
        before = read(out)
        seen = len(stdout_times)
        t0 = time.perf_counter()
        write_atomic(f"{h.files}/file0.txt", f"change {i}\n")
        if wait_for(lambda: read(out) != before, timeout=5, step=0.0002):
            file_lat.append((time.perf_counter() - t0) * 1000)
        if wait_for(lambda: len(stdout_times) > seen and f"change {i}".encode() in stdout_times[-1][1], timeout=5, step=0.0002):
            out_lat.append((stdout_times[-1][0] - t0) * 1000)
        time.sleep(0.2)
    r.stop()
    h.cleanup()
    return file_lat, out_lat


def latencies_i3blocks(args, mode):
    d = tempfile.mkdtemp(prefix="peer-bench-")
    w1_files(d)
    block = {"poll": f"command=cat {d}/file0.txt\ninterval=1\n",
             "signal": f"command=cat {d}/file0.txt\ninterval=once\nsignal=1\n",
             "persist": f"command=inotifywait -qm -e close_write,moved_to --format x {d} | while read x; do cat {d}/file0.txt; done\n"
                        "interval=persist\n"}[mode]
    open(f"{d}/i3blocks.conf", "w").write(f"[f0]\n{block}")
    lines = []
    r = Run(["i3blocks", "-c", f"{d}/i3blocks.conf"], stdout=subprocess.PIPE)

    def reader():
        for line in r.proc.stdout:
            lines.append((time.perf_counter(), line))
    threading.Thread(target=reader, daemon=True).start()
    wait_for(lambda: any(b"file 0 v0" in l for _, l in lines), timeout=5)
    time.sleep(0.3)
    lat = []
    for i in range(args.changes):
        seen = len(lines)
        t0 = time.perf_counter()
        write_atomic(f"{d}/file0.txt", f"change {i}\n")
        if mode == "signal":
            os.kill(r.proc.pid, signal.SIGRTMIN + 1)
        if wait_for(lambda: any(f"change {i}".encode() in l for _, l in lines[seen:]), timeout=5, step=0.0002):
            t1 = next(t for t, l in lines[seen:] if f"change {i}".encode() in l)
            lat.append((t1 - t0) * 1000)
        time.sleep(0.2 if mode != "poll" else 0.3)
    r.stop()
    shutil.rmtree(d, ignore_errors=True)
    return lat


def pct(values, p):
    if not values:
        return float("nan")
    s = sorted(values)
    return s[min(len(s) - 1, int(round(p / 100 * (len(s) - 1))))]


def w2_probe_run(args, container, out_dir, out_name):
    """`w2probe` against whatever reacts in `out_dir`: [p10, p50, p90] µs from the rename."""
    r = subprocess.run([f"{args.probes}/w2probe", container, out_dir, out_name, str(args.changes)],
                       capture_output=True, text=True, timeout=60 + args.changes)
    words = r.stdout.split()
    try:
        i = words.index("returned:")
        return [float(words[i + 2]), float(words[i + 4]), float(words[i + 6])]
    except (ValueError, IndexError):
        return None


def w2_probe(args, results):
    rows = []
    for name, extra in (("C floor, one process (inotify → read → temp + rename)", []),
                        ("C floor, via a worker process over a pipe", ["--worker"])):
        d = tempfile.mkdtemp(prefix="w2floor-", dir="/dev/shm")
        os.makedirs(f"{d}/c"); os.makedirs(f"{d}/out")
        write_atomic(f"{d}/c/file0.txt", "file 0 v0\n")
        p = subprocess.Popen([f"{args.probes}/w2floor", f"{d}/c", f"{d}/out/file0.txt"] + extra, start_new_session=True)
        time.sleep(0.3)
        rows.append((name, w2_probe_run(args, f"{d}/c", f"{d}/out", "file0.txt")))
        os.killpg(p.pid, signal.SIGKILL)  # and its worker child
        p.wait()
        shutil.rmtree(d, ignore_errors=True)
    h = HostSetup(args.host, args.plugin, FILE_WIDGETS[:1], outputs=["txt"])
    shm = tempfile.mkdtemp(prefix="w2-containers-", dir="/dev/shm")
    shutil.rmtree(f"{h.dir}/containers")
    os.symlink(shm, f"{h.dir}/containers")
    os.makedirs(f"{shm}/group.bench", mode=0o700)
    write_atomic(f"{shm}/group.bench/file0.txt", "file 0 v0\n")
    r = Run(h.argv())
    wait_for(lambda: read(h.out("file0")) is not None)
    time.sleep(0.3)
    rows.append(("widgethost → out file", w2_probe_run(args, f"{shm}/group.bench", h.out_dir, "file0.txt")))
    r.stop()
    h.cleanup()
    shutil.rmtree(shm, ignore_errors=True)
    lines = [f"### W2 by probe — container on tmpfs, writer's rename → output renamed (inotify, no polling), {args.changes} changes", "",
             "| reacting program | p10 µs | p50 µs | p90 µs |", "| --- | --- | --- | --- |"]
    for name, v in rows:
        lines.append(f"| {name} | " + (" | ".join(f"{x:.0f}" for x in v) if v else "n/a | n/a | n/a") + " |")
    results.append("\n".join(lines))


def w2(args, results):
    if args.probes and os.path.isdir("/dev/shm"):
        w2_probe(args, results)
    rows = []
    file_lat, out_lat = latencies_host(args)
    rows.append(("widgethost → out file", file_lat))
    rows.append(("widgethost → stdout (jsonl)", out_lat))
    if have("i3blocks"):
        rows.append(("i3blocks, interval 1 (polling)", latencies_i3blocks(args, "poll")))
        rows.append(("i3blocks, signal after the write", latencies_i3blocks(args, "signal")))
        if have("inotifywait"):
            rows.append(("i3blocks, inotify persist block", latencies_i3blocks(args, "persist")))
    lines = [f"### W2 — file write → updated output, {args.changes} changes", "",
             "| path | n | p50 ms | p99 ms | max ms |", "| --- | --- | --- | --- | --- |"]
    for name, lat in rows:
        lines.append(f"| {name} | {len(lat)} | {fmt(pct(lat, 50))} | {fmt(pct(lat, 99))} | {fmt(max(lat) if lat else float('nan'))} |")
    results.append("\n".join(lines))


# ---------------------------------------------------------------- W3

def w3(args, results):
    runs = []
    for rep in range(args.reps):
        h = HostSetup(args.host, args.plugin, [{"id": f"idle{i}", "kind": "idle", "family": "accessoryInline"} for i in range(10)])
        r = Run(h.argv())
        wait_for(lambda: read(h.out("idle9")) is not None)
        time.sleep(2)  # let start-up settle
        _, s0 = tree_snapshot(r.proc.pid)
        t0 = time.monotonic()
        time.sleep(args.duration)
        _, s1 = tree_snapshot(r.proc.pid)
        elapsed = time.monotonic() - t0
        res = r.stop()
        runs.append({"wakeups_per_min": (s1 - s0) * 60 / elapsed, "cpu": res["cpu"]})
        h.cleanup()
    results.append("\n".join([
        f"### W3 — idle: 10 widgets with nothing due, {args.duration:.0f} s", "",
        "| program | wake-ups per minute (voluntary context switches, host + workers) | CPU s (whole run) |", "| --- | --- | --- |",
        f"| widgethost | {median_spread([r['wakeups_per_min'] for r in runs])} | {median_spread([r['cpu'] for r in runs])} |"]))


# ---------------------------------------------------------------- W4

def w4(args, results):
    h = HostSetup(args.host, args.plugin, [{"id": f"tick{i}", "kind": "clock", "family": "accessoryInline"} for i in range(10)],
                  stdout_jsonl=True)
    # The reader only timestamps lines (wall and monotonic); parsing happens after the run.
    # (Parsing in the reader put Python's own costs into the figure: the first time.strptime
    # imports a module, which made every line after the first of that second look 5 ms late.)
    arrivals = []
    r = Run(h.argv(), stdout=subprocess.PIPE)
    start = time.monotonic()

    def reader():
        for line in r.proc.stdout:
            arrivals.append((time.time(), time.monotonic(), line))
    threading.Thread(target=reader, daemon=True).start()

    def parsed():
        out = []
        for wall, mono, line in list(arrivals):
            try:
                obj = json.loads(line)
            except ValueError:
                continue
            if obj.get("date") and mono - start >= 3:
                date = calendar.timegm(time.strptime(obj["date"].replace("Z", ""), "%Y-%m-%dT%H:%M:%S"))
                out.append((wall, mono, obj["id"], date))
        return out

    # The clock jumps: forward by --clock-jump seconds, then back by as much (restoring it), each
    # a clock_settime(CLOCK_REALTIME) as `date -s` does. Needs CAP_SYS_TIME; 0 skips them.
    jumps, jump_note = [], ""
    if args.clock_jump > 0:
        for at, delta in ((12, args.clock_jump), (20, -args.clock_jump)):
            wait_for(lambda: time.monotonic() - start >= at, timeout=60, step=0.05)
            try:
                mono = time.monotonic()
                time.clock_settime(time.CLOCK_REALTIME, time.clock_gettime(time.CLOCK_REALTIME) + delta)
                jumps.append((mono, delta))
            except OSError as e:
                jump_note = f"(No clock jump: {e}; it needs CAP_SYS_TIME.)"
                break
    def steady(rows):
        """Lateness of every swap but those in the second after a jump."""
        return [(wall - date) * 1000 for wall, mono, _, date in rows if not any(0 <= mono - jm < 1.0 for jm, _ in jumps)]
    wait_for(lambda: len(arrivals) >= args.swaps and len(steady(parsed())) >= args.swaps, timeout=args.swaps / 10 + 60, step=1)
    r.stop()
    h.cleanup()
    rows = parsed()
    lateness = steady(rows)
    # After a jump each widget must show the entry of the new time at once: the time from the
    # clock_settime to each widget's first line after it.
    reaction = []
    for jm, _ in jumps:
        for i in range(10):
            first = next((mono for _, mono, wid, _ in rows if wid == f"tick{i}" and mono >= jm), None)
            if first is not None and first - jm < 1.0:
                reaction.append((first - jm) * 1000)
    lines = [f"### W4 — entry-swap lateness (stdout arrival − entry date), {len(lateness)} swaps", "",
             "| program | p50 ms | p99 ms | max ms |", "| --- | --- | --- | --- |",
             f"| widgethost | {fmt(pct(lateness, 50))} | {fmt(pct(lateness, 99))} | {fmt(max(lateness) if lateness else float('nan'))} |"]
    if jumps:
        lines += ["", f"After the clock jumps ({args.clock_jump:+g} s, then back): clock set → each of the 10 widgets showing "
                      f"the entry of the new time, {len(reaction)} of {10 * len(jumps)} within 1 s: "
                      f"p50 {fmt(pct(reaction, 50))} ms, max {fmt(max(reaction) if reaction else float('nan'))} ms."]
    if jump_note:
        lines += ["", jump_note]
    results.append("\n".join(lines))


# ---------------------------------------------------------------- W5

def w5(args, results):
    n = args.scale
    h = HostSetup(args.host, args.plugin, [{"id": f"t{i}", "kind": "tick", "family": "accessoryInline"} for i in range(n)])
    t0 = time.monotonic()
    r = Run(h.argv())
    complete = wait_for(lambda: os.path.isdir(h.out_dir) and len(os.listdir(h.out_dir)) >= 2 * n, timeout=60, step=0.01)
    first = time.monotonic() - t0
    # steady swapping: CPU of the host process itself over 20 s, from /proc
    def cpu_of(pid):
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    c0, w0 = cpu_of(r.proc.pid), time.monotonic()
    time.sleep(20)
    c1, w1_ = cpu_of(r.proc.pid), time.monotonic()
    res = r.stop()
    host_rss = res["rss"].get(r.proc.pid, 0) / 1024
    h.cleanup()
    results.append("\n".join([
        f"### W5 — scale: {n} instances with 60-entry timelines", "",
        "| measure | widgethost |", "| --- | --- |",
        f"| time to the first complete output (all {n} widgets written) | {first * 1000:.0f} ms{'' if complete else ' (incomplete!)'} |",
        f"| host peak RSS | {host_rss:.1f} MiB |",
        f"| host CPU per second of steady swapping | {(c1 - c0) / (w1_ - w0) * 1000:.1f} ms/s |"]))


# ---------------------------------------------------------------- W6

def w6(args, results):
    def req(p, obj):
        b = json.dumps(obj, sort_keys=True, separators=(",", ":")).encode()
        p.stdin.write(struct.pack(">I", len(b)) + b)
        p.stdin.flush()
        n = struct.unpack(">I", p.stdout.read(4))[0]
        return p.stdout.read(n)

    lines = ["### W6 — worker cold start and warm round trip", "",
             "| plugin | cold start + first answer, p50 ms (min) | warm `describe` p50 ms | warm `timeline` p50 ms |",
             "| --- | --- | --- | --- |"]
    env = dict(os.environ, SWIFT_BACKTRACE="enable=no")
    # The worker executable the host starts (beside it), not `widgethost worker`, which execs it.
    worker = os.path.join(os.path.dirname(os.path.abspath(args.host)), "widgethost-worker")
    for name, so, kind, family in args.w6_plugins:
        cold = []
        for _ in range(30):
            t = time.perf_counter()
            p = subprocess.Popen([worker, "worker", "--plugin", so], stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env)
            req(p, {"op": "describe"})
            cold.append((time.perf_counter() - t) * 1000)
            p.stdin.close()
            p.wait()
        p = subprocess.Popen([worker, "worker", "--plugin", so], stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env)
        req(p, {"op": "describe"})
        warm = []
        for _ in range(500):
            t = time.perf_counter()
            req(p, {"op": "describe"})
            warm.append((time.perf_counter() - t) * 1000)
        tl = []
        for _ in range(200):
            t = time.perf_counter()
            req(p, {"op": "timeline", "kind": kind, "family": family})
            tl.append((time.perf_counter() - t) * 1000)
        p.stdin.close()
        p.wait()
        lines.append(f"| {name} | {fmt(statistics.median(cold))} ({fmt(min(cold))}) | {fmt(statistics.median(warm))} | "
                     f"{fmt(statistics.median(tl))} |")
    results.append("\n".join(lines))


# ---------------------------------------------------------------- W7

def w7(args, results):
    """Start-up: exec → every output of W1's 11 widgets written, CPU of host + workers then."""
    rows = {"cold": [], "warm": []}
    for rep in range(args.reps):
        h = w1_host_setup(args, "W1")
        w1_files(h.files)
        for phase in ("cold", "warm"):
            if phase == "warm":
                # the outputs of the cold run are removed; its saved timelines stay in state/
                for name in os.listdir(h.out_dir):
                    os.unlink(f"{h.out_dir}/{name}")
            ids = ["clock"] + [f"file{i}" for i in range(10)]
            t0 = time.monotonic()
            r = Run(h.argv())
            ok = wait_for(lambda: all(os.path.exists(h.out(i)) for i in ids), timeout=10, step=0.0005)
            wall = time.monotonic() - t0
            pids = descendants(r.proc.pid)
            host_ns = schedstat_ns(r.proc.pid)
            workers_ns = sum(schedstat_ns(p) for p in pids if p != r.proc.pid)
            # The worker's own start, when it comes after the first complete output (warm).
            wait_for(lambda: len(descendants(r.proc.pid)) > 1, timeout=5)
            time.sleep(1)
            pids1 = descendants(r.proc.pid)
            after_ns = schedstat_ns(r.proc.pid) + sum(schedstat_ns(p) for p in pids1 if p != r.proc.pid)
            r.stop()
            rows[phase].append({"wall": wall * 1000, "host": host_ns / 1e6, "workers": workers_ns / 1e6,
                                "total": (host_ns + workers_ns) / 1e6, "settled": after_ns / 1e6, "ok": ok,
                                "nworkers": len(pids) - 1})
        # The same starts again, stopped (SIGTERM) as soon as the outputs are complete: wait4's
        # CPU of the whole tree, processes that already exited included (schedstat above only
        # sees the living), and the shutdown.
        for phase in ("cold", "warm"):
            for name in os.listdir(h.out_dir):
                os.unlink(f"{h.out_dir}/{name}")
            if phase == "cold":
                shutil.rmtree(f"{h.dir}/state", ignore_errors=True)
            r = Run(h.argv())
            ok = wait_for(lambda: all(os.path.exists(h.out(i)) for i in ids), timeout=10, step=0.0005)
            rows[phase][-1]["stopped"] = r.stop()["cpu"] * 1000
            rows[phase][-1]["ok"] &= ok
        h.cleanup()
    lines = [f"### W7 — start-up: exec → all 11 outputs of W1 written, {args.reps} run(s)", "",
             "| start | wall ms | host CPU ms | worker CPU ms (other processes by then: workers and their guardians) | host + workers CPU ms | CPU ms of both 1 s later | tree CPU ms, stopped at once (wait4: exited processes and the shutdown included) |",
             "| --- | --- | --- | --- | --- | --- | --- |"]
    for phase, runs in rows.items():
        if not runs:
            continue
        bad = "" if all(r["ok"] for r in runs) else " (incomplete!)"
        lines.append(f"| {phase} ({'empty state' if phase == 'cold' else 'saved timelines'}){bad} | {median_spread([r['wall'] for r in runs])} | "
                     f"{median_spread([r['host'] for r in runs])} | {median_spread([r['workers'] for r in runs])} "
                     f"({statistics.median(r['nworkers'] for r in runs):.0f}) | {median_spread([r['total'] for r in runs])} | "
                     f"{median_spread([r['settled'] for r in runs])} | {median_spread([r['stopped'] for r in runs])} |")
    results.append("\n".join(lines))


# ---------------------------------------------------------------- main

def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--host", required=True, help="the widgethost binary (release build)")
    ap.add_argument("--plugin", required=True, help="the compiled Benchmarks/plugins/bench_widgets.c")
    ap.add_argument("--habit", help="the HabitWidget .so (W6, a Swift plugin)")
    ap.add_argument("--system", help="the SystemWidgets .so (W1s, the Swift system bundle's clock)")
    ap.add_argument("--probes", help="the folder with w2probe and w2floor (W2 without polling)")
    ap.add_argument("--only", default="W1,W1r,W1s,W1i,W2,W3,W4,W5,W6,W7,W8,W9")
    ap.add_argument("--host-outputs", default="txt,files",
                    help="W1: one host row per outputs setting (txt: out/<id>.txt only; files: .txt and .json; "
                         "stdout: `--stdout i3bar` and no file, like i3status)")
    ap.add_argument("--peers", default="conky-cat,i3status,conky-execi,i3blocks",
                    help="W1 peers to run: conky-cat, i3status, conky-execi, i3blocks")
    ap.add_argument("--duration", type=float, default=60)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--changes", type=int, default=30)
    ap.add_argument("--swaps", type=int, default=600)
    ap.add_argument("--scale", type=int, default=500)
    ap.add_argument("--clock-jump", type=float, default=2.0,
                    help="W4: set the system clock forward by this many seconds and back again (needs CAP_SYS_TIME; 0: no jump)")
    ap.add_argument("--plugins-dir", default=os.path.join(ROOT, "Plugins"),
                    help="W1i, W8, W9: the plugins folder as scripts/install-plugins.sh fills it")
    ap.add_argument("--latency-changes", type=int, default=100, help="W9: container writes timed to the screen")
    ap.add_argument("--out", help="also write the Markdown here")
    args = ap.parse_args()
    args.w6_plugins = [("C plugin (bench_widgets.c)", args.plugin, "clock", "accessoryInline")]
    if args.habit:
        args.w6_plugins.insert(0, ("Swift plugin (HabitWidget)", args.habit, "MyAppWidget", "systemMedium"))
    results = [f"Machine: {os.cpu_count()} cores, {os.uname().release}; "
               f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; peers: "
               + ", ".join(p for p in ("i3blocks", "i3status", "conky", "inotifywait") if have(p))]
    for w in args.only.split(","):
        print(f"running {w}…", file=sys.stderr, flush=True)
        before = len(results)
        import bench_desktop
        {"W1": w1, "W1r": w1r, "W1s": w1s, "W1i": w1i, "W7": w7, "W2": w2, "W3": w3, "W4": w4, "W5": w5, "W6": w6,
         "W8": bench_desktop.w8, "W9": bench_desktop.w9}[w.strip()](args, results)
        for table in results[before:]:
            print(table + "\n", flush=True)
    if args.out:
        with open(args.out, "w") as f:
            f.write("\n\n".join(results) + "\n")


if __name__ == "__main__":
    main()
