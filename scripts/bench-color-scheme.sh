#!/usr/bin/env bash
# Light/dark following the desktop (issue 24 item 6): how long from the desktop's flip
# (`gsettings set org.gnome.desktop.interface color-scheme …` returning) to the lean surface's
# screen showing the widget in the new scheme. A private Xvfb and session bus, which starts the
# real xdg-desktop-portal and xdg-desktop-portal-gtk; the debug host serving the Apple-style
# fixture's AppearanceWidget with picture.colorScheme "system"; the screen is polled with
# ImageMagick's `import` (one pixel of the widget), so each figure includes up to one screenshot
# (~10–20 ms). Prints each flip, then min / median / max per direction.
# Usage: scripts/bench-color-scheme.sh [flips per direction, default 10]
set -euo pipefail
cd "$(dirname "$0")/.."
flips="${1:-10}"
swift build >&2
bin="$(swift build --show-bin-path)"
work="$(mktemp -d)"
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; sleep 0.5; rm -rf "$work"; }
trap cleanup EXIT
mkdir -p "$work/config/xdg-desktop-portal" "$work/run" "$work/host/Plugins"
chmod 700 "$work/run"
printf '[preferred]\ndefault=gtk\n' > "$work/config/xdg-desktop-portal/portals.conf"
cp "$bin/libAppleStyleWidget.so" "$work/host/Plugins/AppleStyleWidget.so"
cat > "$work/host/config.json" <<EOF
{"paths": {"plugins": "Plugins", "out": "out", "containers": "containers", "state": "state", "socket": "$work/ctl.sock"},
 "defaults": {"picture": {"colorScheme": "system"}},
 "widgets": [{"id": "appearance", "kind": "AppearanceWidget", "family": "systemSmall", "outputs": ["files"]}],
 "desktop": {"widgets": ["appearance"], "anchor": "top-left", "margin": 32, "scale": 2}}
EOF
export XDG_CONFIG_HOME="$work/config" XDG_RUNTIME_DIR="$work/run" GSETTINGS_BACKEND=keyfile XDG_CURRENT_DESKTOP=GNOME
unset WAYLAND_DISPLAY AT_SPI_BUS_ADDRESS
exec 3> "$work/display"
Xvfb -displayfd 3 -screen 0 800x600x24 -nolisten tcp > "$work/xvfb.log" 2>&1 & pids+=($!)
until [ -s "$work/display" ]; do sleep 0.05; done
export DISPLAY=":$(tr -dc 0-9 < "$work/display")"
{ read -r address; read -r bus_pid; } < <(dbus-daemon --session --fork --print-address=1 --print-pid=1)
pids+=("$bus_pid")
export DBUS_SESSION_BUS_ADDRESS="$address"
(cd "$work/host" && exec "$bin/widgethost" run --config config.json > "$work/host.log" 2>&1) & pids+=($!)
until [ -s "$work/host/out/appearance.txt" ]; do sleep 0.05; done
"$bin/widgethost-desktop" --config "$work/host/config.json" > "$work/desktop.log" 2>&1 & pids+=($!)
until grep -q "colour scheme: light (the desktop portal, read)" "$work/desktop.log"; do sleep 0.05; done
# One pixel inside the widget (at 64…380 px), below its text: its background.
pixel() { import -window root -crop 1x1+100+300 txt:- 2>/dev/null | grep -o '#[0-9A-F]\{6\}' | head -1; }
until [ "$(pixel)" = "#FFFFFF" ]; do sleep 0.05; done
declare -A times=([dark]="" [light]="")
for ((i = 0; i < flips; i++)); do
  for scheme in dark light; do
    want=$([ "$scheme" = dark ] && echo '#1C1C1C' || echo '#FFFFFF')
    t0=$(date +%s%N)
    gsettings set org.gnome.desktop.interface color-scheme "prefer-$scheme"
    t1=$(date +%s%N)
    until [ "$(pixel)" = "$want" ]; do :; done
    t2=$(date +%s%N)
    text="$(cat "$work/host/out/appearance.txt")"
    ms=$(( (t2 - t1) / 1000000 ))
    echo "to $scheme: screen ${ms} ms after gsettings returned (gsettings itself $(( (t1 - t0) / 1000000 )) ms); text output now \"$text\""
    times[$scheme]+="$ms "
  done
done
for scheme in dark light; do
  sorted=($(tr ' ' '\n' <<< "${times[$scheme]}" | grep . | sort -n))
  n=${#sorted[@]}
  echo "to $scheme over $n flips: min ${sorted[0]} ms, median ${sorted[$((n / 2))]} ms, max ${sorted[$((n - 1))]} ms"
done
