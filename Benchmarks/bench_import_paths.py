#!/usr/bin/env python3
"""What a bundle's import path costs its worker (issue 27): cold starts of `widgethost-worker`
on each given bundle — spawn, load, `describe`, one `timeline` — with the wall time to the
timeline's answer, the worker's CPU time (wait4, the whole run to its exit) and its peak RSS
(VmHWM, read when the timeline has been answered). Medians and ranges over --runs starts.

    python3 Benchmarks/bench_import_paths.py --worker .build/debug/widgethost-worker \\
        --bundle NAME=PATH.so:KIND:FAMILY [--bundle …] [--runs 30]
"""
import argparse, json, os, statistics, struct, subprocess, time


def request(p, obj):
    b = json.dumps(obj, separators=(",", ":")).encode()
    p.stdin.write(struct.pack(">I", len(b)) + b)
    p.stdin.flush()
    n = struct.unpack(">I", p.stdout.read(4))[0]
    answer = json.loads(p.stdout.read(n))
    if not answer.get("ok"):
        raise SystemExit(f"{obj}: {answer.get('error')}")


def peak_rss_mib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def one_start(worker, so, kind, family):
    t = time.perf_counter()
    p = subprocess.Popen([worker, "worker", "--plugin", so], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         env=dict(os.environ, SWIFT_BACKTRACE="enable=no"))
    request(p, {"op": "describe"})
    request(p, {"op": "timeline", "kind": kind, "family": family})
    wall = (time.perf_counter() - t) * 1000
    rss = peak_rss_mib(p.pid)
    p.stdin.close()
    _, _, usage = os.wait4(p.pid, 0)
    p.returncode = 0
    return wall, (usage.ru_utime + usage.ru_stime) * 1000, rss


def spread(values):
    return f"{statistics.median(values):.1f} ({min(values):.1f}–{max(values):.1f})"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--worker", required=True)
    ap.add_argument("--bundle", action="append", required=True, help="NAME=PATH.so:KIND:FAMILY")
    ap.add_argument("--runs", type=int, default=30)
    args = ap.parse_args()
    bundles = []
    for b in args.bundle:
        name, rest = b.split("=", 1)
        so, kind, family = rest.rsplit(":", 2)
        bundles.append((name, so, kind, family))
    rows = {name: [] for name, *_ in bundles}
    for _ in range(args.runs):  # interleaved, so load on the machine falls on every bundle alike
        for name, so, kind, family in bundles:
            rows[name].append(one_start(args.worker, so, kind, family))
    print("| bundle | start → timeline answered, wall ms | worker CPU ms | worker peak RSS MiB |")
    print("| --- | --- | --- | --- |")
    for name, *_ in bundles:
        r = rows[name]
        print(f"| {name} | {spread([x[0] for x in r])} | {spread([x[1] for x in r])} | {spread([x[2] for x in r])} |")


if __name__ == "__main__":
    main()
