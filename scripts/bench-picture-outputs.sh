#!/usr/bin/env bash
# The picture-output benchmark (issue 12, item 5): builds the release host, widgethost-render
# and the example bundles, compiles the probe fixture as a ticking live timer, and runs
# Benchmarks/bench_picture_outputs.py: host CPU per 60 s with 10 png widgets against the same
# widgets as text, and the latency from a container write to the new PNG on disk.
# Extra arguments go to the script (e.g. --only P2 --writes 200, --duration 30 --reps 3).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
swift build -c release --product widgethost >&2
swift build -c release --product widgethost-render >&2
for p in HabitWidget StatsWidget CardioBotWidgets SystemWidgets; do swift build -c release --product "$p" >&2; done
bin="$(swift build -c release --show-bin-path)"
mkdir -p .build/bench
cc -shared -fPIC -O2 -I Sources/CWidgetPluginABI/include -DPROBE_TIMER -DPROBE_STEP=3600 \
  -o .build/bench/timer_probe.so Tests/IntegrationTests/Fixtures/probe_widget.c
exec python3 Benchmarks/bench_picture_outputs.py --host "$bin/widgethost" \
  --plugins .build/bench/timer_probe.so "$bin/libHabitWidget.so" "$bin/libStatsWidget.so" \
            "$bin/libCardioBotWidgets.so" "$bin/libSystemWidgets.so" \
  --out Benchmarks/latest-pictures.md "$@"
