#!/usr/bin/env bash
# Builds widgethost, its worker, render and desktop processes and the example bundles, then
# installs each bundle into Plugins/ atomically (copy to a temp name, rename): a running host sees
# one complete replacement, never a torn or overwritten-in-place .so. Builds only those products,
# not the test fixtures and benchmarks a plain `swift build` adds. Says before building what it
# builds and about how long that takes (docs/performance.md, "The run command's first output").
# Usage: scripts/install-plugins.sh [debug|release]
set -euo pipefail
cd "$(dirname "$0")/.."
config="${1:-release}"
bundles=(HabitWidget StatsWidget CardioBotWidgets ClockyWidget SystemWidgets)
# The host first, its helpers, then the bundles it loads; the desktop (README's "Try it") last.
products=(widgethost widgethost-worker widgethost-render "${bundles[@]}" widgethost-desktop)
bash scripts/install-deps.sh
if [ -x ".build/$config/widgethost" ]; then
    echo "Rebuilding what changed since the last $config build of widgethost and the example bundles (seconds; minutes after a large pull)…" >&2
else
    echo "Building widgethost and the ${#bundles[@]} example bundles ($config) for the first time: about 4 minutes with 2 cores, once; later runs rebuild only what changed…" >&2
fi
for product in "${products[@]}"; do
    swift build -c "$config" --product "$product" >&2
done
bin="$(swift build -c "$config" --show-bin-path)"
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
