#!/usr/bin/env bash
# The benchmark command (issue 6): installs the peers (i3blocks, i3status, conky-cli,
# inotify-tools), builds the release host and the example bundles, compiles the benchmark
# plugin, and runs every workload for the host and its peers in one invocation.
# Extra arguments go to Benchmarks/bench.py (e.g. --only W2,W6 --reps 1 --duration 20).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
missing=()
for p in i3blocks:i3blocks i3status:i3status conky:conky-cli inotifywait:inotify-tools; do
  command -v "${p%%:*}" >/dev/null || missing+=("${p#*:}")
done
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" -eq 0 ]; then SUDO=""; else SUDO="sudo"; fi
  $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi
widgethost="$(bash scripts/install-plugins.sh release)"
bin="$(dirname "$widgethost")"
mkdir -p .build/bench
cc -shared -fPIC -O2 -I Sources/CWidgetPluginABI/include -o .build/bench/bench_widgets.so Benchmarks/plugins/bench_widgets.c
# W2's probe (writes a container file, waits on inotify for the output) and its C floor.
cc -O2 -o .build/bench/w2probe Benchmarks/probes/w2probe.c
cc -O2 -o .build/bench/w2floor Benchmarks/probes/w2floor.c
exec python3 Benchmarks/bench.py --host "$widgethost" --plugin "$PWD/.build/bench/bench_widgets.so" \
  --habit "$bin/libHabitWidget.so" --system "$bin/libSystemWidgets.so" --probes "$PWD/.build/bench" \
  --out Benchmarks/latest.md "$@"
