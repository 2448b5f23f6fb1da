#!/usr/bin/env bash
# Builds widgethost and the example bundles, then installs each bundle into Plugins/ atomically
# (copy to a temp name, rename): a running host sees one complete replacement, never a torn or
# overwritten-in-place .so. Usage: scripts/install-plugins.sh [debug|release]
set -euo pipefail
cd "$(dirname "$0")/.."
config="${1:-release}"
bash scripts/install-deps.sh
swift build -c "$config" >&2
bin="$(swift build -c "$config" --show-bin-path)"
mkdir -p Plugins
for so in "$bin"/libHabitWidget.so "$bin"/libStatsWidget.so "$bin"/libCardioBotWidgets.so \
          "$bin"/libClockyWidget.so "$bin"/libSystemWidgets.so; do
  name="$(basename "$so" .so)"; name="${name#lib}"
  if ! cmp -s "$so" "Plugins/$name.so"; then
    cp "$so" "Plugins/.$name.so.tmp" && mv -f "Plugins/.$name.so.tmp" "Plugins/$name.so"
    echo "installed Plugins/$name.so" >&2
  fi
done
cc -shared -fPIC -O2 -I Sources/CWidgetPluginABI/include -o Plugins/.HelloC.so.tmp Examples/CPlugin/hello_widget.c \
  && { cmp -s Plugins/.HelloC.so.tmp Plugins/HelloC.so && rm -f Plugins/.HelloC.so.tmp || mv -f Plugins/.HelloC.so.tmp Plugins/HelloC.so; }
echo "$bin/widgethost"
