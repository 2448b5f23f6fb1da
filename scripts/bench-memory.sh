#!/usr/bin/env bash
# The long memory run (issue 26, docs/performance.md "The desktop path"): one picture per second
# for an hour — the system clock drawn to out/clock.png by the render process and on the desktop
# by the lean widgethost-desktop under Xvfb — sampling every process's RSS; says per process
# whether it ends within 1 MB of its 5-minute RSS. Builds the release executables and the example
# bundles, then runs a private copy of them (a rebuild during the hour cannot change what runs).
# Extra arguments go to Benchmarks/bench_memory.py (e.g. --duration 600 --baseline 60).
set -euo pipefail
cd "$(dirname "$0")/.."
widgethost="$(bash scripts/install-plugins.sh release)"
bin="$(dirname "$widgethost")"
copy="$(mktemp -d /tmp/widgethost-memory-bench.XXXXXX)"
trap 'rm -rf "$copy"' EXIT
mkdir -p "$copy/bin" "$copy/plugins"
for exe in widgethost widgethost-worker widgethost-render widgethost-desktop; do cp "$bin/$exe" "$copy/bin/"; done
cp Plugins/*.so "$copy/plugins/"
python3 Benchmarks/bench_memory.py --bin "$copy/bin" --plugins "$copy/plugins" \
  --out Benchmarks/latest-memory.md --samples Benchmarks/latest-memory.jsonl "$@"
