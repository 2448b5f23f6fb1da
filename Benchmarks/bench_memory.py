#!/usr/bin/env python3
"""Memory over a long run (issue 26): does any process grow?

One picture per second for --duration s (default 1 h): `widgethost run` with the Swift system
bundle's clock (systemSmall, a new entry each second) written as `out/clock.png` at scale 2 by
the render process, and the lean `widgethost-desktop` drawing the same clock from the view stream
on an Xvfb of its own. Every process of both trees is sampled every --every s (VmRSS, PSS); the
answer is, per process, whether its RSS at the end is within 1 MB (1024 KiB) of its RSS at
--baseline s (default 300: the 5-minute figure). A process that was replaced (a worker restarted)
shows as gone and new.

Run through scripts/bench-memory.sh, which builds the release executables and copies them (and
the plugins) to a private folder first, so a rebuild during the hour cannot change them.
"""
import argparse
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench as b  # noqa: E402
import bench_desktop as d  # noqa: E402


def sample(roots):
    """{pid: (comm, RSS KiB, PSS KiB)} of every process of the trees."""
    out = {}
    for root in roots:
        for p in b.descendants(root):
            out[p] = (d.comm(p), d.rss_kib(p), d.pss_kib(p))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", required=True, help="folder with widgethost, widgethost-worker, widgethost-render, widgethost-desktop")
    ap.add_argument("--plugins", required=True, help="folder of the plugins to install (SystemWidgets.so among them)")
    ap.add_argument("--duration", type=float, default=3600)
    ap.add_argument("--baseline", type=float, default=300)
    ap.add_argument("--every", type=float, default=60)
    ap.add_argument("--out", help="also write the Markdown here")
    ap.add_argument("--samples", help="also write every sample here (JSON lines)")
    args = ap.parse_args()
    plugins = sorted(os.path.join(args.plugins, n) for n in os.listdir(args.plugins) if n.endswith(".so"))
    setup = argparse.Namespace(host=os.path.join(args.bin, "widgethost"))
    clock = dict(d.CLOCK, outputs=["png"])
    h = d.DesktopHost(setup, [clock], {"widgets": ["clock"], "anchor": "top-right", "scale": 2}, plugins)
    with open(h.config) as f:
        config = json.load(f)
    config["defaults"]["picture"] = {"scale": 2}
    with open(h.config, "w") as f:
        json.dump(config, f, indent=1)
    x = d.Xvfb(1280, 800)
    started = time.monotonic()
    samples = []
    sink = open(args.samples, "w") if args.samples else None
    try:
        host = h.start_host(x)
        desktop = h.start_desktop(x)
        roots = [host.pid, desktop.pid]
        times = sorted({args.baseline, args.duration} | {t * args.every for t in range(1, int(args.duration // args.every) + 1)})
        pngs_seen = 0
        last_png = None
        for t in times:
            while time.monotonic() - started < t:
                time.sleep(min(1.0, t - (time.monotonic() - started)))
                try:
                    m = os.stat(f"{h.out_dir}/clock.png").st_mtime_ns
                    if m != last_png:
                        last_png, pngs_seen = m, pngs_seen + 1
                except OSError:
                    pass
            s = sample(roots)
            samples.append((t, s))
            if sink:
                sink.write(json.dumps({"t": t, "processes": {str(p): v for p, v in s.items()}}) + "\n")
                sink.flush()
            print(f"t={t:.0f}s " + ", ".join(f"{c}[{p}] {r / 1024:.1f}" for p, (c, r, _) in sorted(s.items())), file=sys.stderr, flush=True)
        alive_desktop = desktop.poll() is None
        alive_host = host.poll() is None
        shot = os.path.join(d.SCREENS, "memory-end.png")
        x.shot(shot)
        d.stop(desktop)
        d.stop(host)
    finally:
        x.stop()
        h.cleanup()
        if sink:
            sink.close()
    base = dict(next(s for t, s in samples if t == args.baseline))
    end = samples[-1][1]
    lines = [f"### Memory over {args.duration / 60:.0f} min, one picture per second", "",
             f"The system clock (systemSmall) drawn each second to `out/clock.png` (scale 2, the render process) and by the lean "
             f"`widgethost-desktop` (Xvfb 1280×800); {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}. "
             f"Host alive at the end: {alive_host}; surface alive: {alive_desktop}; pictures seen changing (1 s polls): {pngs_seen}.", "",
             f"| process | pid | RSS MB at {args.baseline / 60:.0f} min | RSS MB at {args.duration / 60:.0f} min | change KiB | within 1 MB | PSS MB at the end |",
             "| --- | --- | --- | --- | --- | --- | --- |"]
    for p in sorted(set(base) | set(end)):
        c = (end.get(p) or base.get(p))[0]
        r0 = base[p][1] if p in base else None
        r1 = end[p][1] if p in end else None
        if r0 is None or r1 is None:
            lines.append(f"| {c} | {p} | {'—' if r0 is None else f'{r0 / 1024:.1f}'} | {'—' if r1 is None else f'{r1 / 1024:.1f}'} | "
                         f"{'started later' if r0 is None else 'gone'} | — | {'—' if r1 is None else f'{end[p][2] / 1024:.1f}'} |")
            continue
        lines.append(f"| {c} | {p} | {r0 / 1024:.1f} | {r1 / 1024:.1f} | {r1 - r0:+d} | {'yes' if abs(r1 - r0) <= 1024 else '**no**'} | {end[p][2] / 1024:.1f} |")
    lines += ["", "RSS (MB) of each process at every sample: " + "; ".join(
        f"{c}[{p}] " + " ".join(f"{s[p][1] / 1024:.1f}" if p in s else "·" for _, s in samples)
        for p, (c, _, _) in sorted(end.items()))]
    text = "\n".join(lines)
    print(text)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text + "\n")


if __name__ == "__main__":
    main()
