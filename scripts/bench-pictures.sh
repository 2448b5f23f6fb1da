#!/usr/bin/env bash
# The picture benchmark (issue 11): builds release, then times the layout of every example's
# snapshot in every family and the render of each systemSmall at scale 2 to PNG and SVG, under
# the goldens' pinned fonts. Prints Markdown tables (docs/performance.md, "Pictures").
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
swift build -c release --product widgethost >/dev/null
swift build -c release --product widgethost-worker >/dev/null  # widgethost runs its workers from this file
swift build -c release --product PictureBench >/dev/null
for p in HabitWidget StatsWidget CardioBotWidgets ClockyWidget SystemWidgets; do
  swift build -c release --product "$p" >/dev/null
done
bin="$(swift build -c release --show-bin-path)"
export FONTCONFIG_FILE="$PWD/Tests/WidgetGraphicsTests/Fixtures/fonts.conf" TZ=UTC
exec "$bin/PictureBench" "$bin/widgethost" "$bin"/libHabitWidget.so "$bin"/libStatsWidget.so "$bin"/libCardioBotWidgets.so \
  "$bin"/libClockyWidget.so "$bin"/libSystemWidgets.so
