#!/usr/bin/env bash
# Installs what WidgetHost needs beyond Swift itself: libuv (Debian's libuv1-dev), pkg-config
# and a C compiler (tests build fixture plugins in C); the real status bars the status-bar tests run. Idempotent; quiet when all is present.
set -euo pipefail
missing=()
pkg-config --exists libuv 2>/dev/null || missing+=(libuv1-dev)
command -v pkg-config >/dev/null || missing+=(pkg-config)
command -v cc >/dev/null || missing+=(gcc)
# fontconfig and Debian's default fonts: the glyph-coverage test asks fc-list which symbols the
# fonts bars fall back to can show.
command -v fc-list >/dev/null || missing+=(fontconfig)
[ -e /usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf ] || missing+=(fonts-dejavu-core)
# Optional: real status bars the integration tests feed (skipped when absent). Skip them with
# WIDGETHOST_NO_BARS=1.
if [ -z "${WIDGETHOST_NO_BARS:-}" ]; then
    command -v i3blocks >/dev/null || missing+=(i3blocks)
    command -v conky >/dev/null || missing+=(conky-cli)
    # RealBarTests: the bars themselves, headless (Xvfb; sway's headless backend), screen
    # grabbers (X11, Wayland) and a pointer for clicks (the recipes' font, DejaVu Sans Mono, is installed above).
    command -v Xvfb >/dev/null || missing+=(xvfb)
    command -v polybar >/dev/null || missing+=(polybar)
    command -v i3 >/dev/null || missing+=(i3-wm)
    command -v sway >/dev/null || missing+=(sway)
    command -v waybar >/dev/null || missing+=(waybar)
    command -v grim >/dev/null || missing+=(grim)
    command -v import >/dev/null || missing+=(imagemagick)
    command -v xdotool >/dev/null || missing+=(xdotool)
fi
[ ${#missing[@]} -eq 0 ] && exit 0
echo "installing: ${missing[*]}" >&2
if [ "$(id -u)" -eq 0 ]; then SUDO=""; else SUDO="sudo"; fi
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
