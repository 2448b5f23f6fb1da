#!/usr/bin/env bash
# Builds widgethost, its worker, render and desktop processes and the example bundles, then
# installs each bundle into Plugins/ atomically (copy to a temp name, rename): a running host sees
# one complete replacement, never a torn or overwritten-in-place .so. Says before building what it
# builds and about how long that takes (docs/performance.md, "The run command's first output").
# One `swift build` for the whole package: building only these products takes one invocation
# each, which saved a cold build 9 % of its CPU but cost every warm run 12 s (the same page).
# Usage: scripts/install-plugins.sh [debug|release]
set -euo pipefail
cd "$(dirname "$0")/.."
config="${1:-release}"
bundles=(HabitWidget StatsWidget CardioBotWidgets ClockyWidget SystemWidgets WeatherWidget NetworkDiskWidgets CalendarWidget WorldClockWidget BatteriesWidget NowPlayingWidget)
bash scripts/install-deps.sh
bash scripts/forget-old-build-products.sh   # an older checkout's swift-syntax modules would shadow the toolchain's
if [ -x ".build/$config/widgethost" ]; then
    echo "Rebuilding what changed since the last $config build of WidgetHost (seconds; minutes after a large pull)…" >&2
else
    echo "Building WidgetHost ($config: the host and its processes, the ${#bundles[@]} example bundles, the test fixtures) for the first time: about 3 minutes with 2 idle cores (longer while other builds run), once; later runs rebuild only what changed…" >&2
fi
swift build -c "$config" >&2
bin="$PWD/.build/$config"   # what `swift build --show-bin-path` says, without a second second of planning
mkdir -p Plugins
for name in "${bundles[@]}"; do
  so="$bin/lib$name.so"
  if ! cmp -s "$so" "Plugins/$name.so"; then
    cp "$so" "Plugins/.$name.so.tmp" && mv -f "Plugins/.$name.so.tmp" "Plugins/$name.so"
    echo "installed Plugins/$name.so" >&2
  fi
done
cc -shared -fPIC -O2 -I Sources/CWidgetPluginABI/include -o Plugins/.HelloC.so.tmp Examples/CPlugin/hello_widget.c \
  && { cmp -s Plugins/.HelloC.so.tmp Plugins/HelloC.so && rm -f Plugins/.HelloC.so.tmp || mv -f Plugins/.HelloC.so.tmp Plugins/HelloC.so; }
echo "$bin/widgethost"
