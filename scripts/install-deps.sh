#!/usr/bin/env bash
# Installs what WidgetHost needs beyond Swift itself: libuv (Debian's libuv1-dev), pkg-config
# and a C compiler (tests build fixture plugins in C); Cairo, Pango and fonts for pictures; i3blocks and conky-cli for the status-bar tests. Idempotent; quiet when all is present.
set -euo pipefail
missing=()
pkg-config --exists libuv 2>/dev/null || missing+=(libuv1-dev)
command -v pkg-config >/dev/null || missing+=(pkg-config)
command -v cc >/dev/null || missing+=(gcc)
# Pictures (WidgetGraphics): Cairo and Pango, and the fonts the renderer names and the picture
# goldens are pinned to (Tests/WidgetGraphicsTests/Fixtures/fonts.conf).
pkg-config --exists cairo pangocairo 2>/dev/null || missing+=(libcairo2-dev libpango1.0-dev)
[ -f /usr/share/fonts/opentype/inter/Inter-Regular.otf ] || missing+=(fonts-inter)
[ -f /usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf ] || missing+=(fonts-dejavu-core)
[ -f /usr/share/fonts/truetype/material-design-icons-iconfont/MaterialIcons-Regular.ttf ] || missing+=(fonts-material-design-icons-iconfont)
command -v faketime >/dev/null || missing+=(faketime)  # picture goldens run at a frozen date
# Optional: real status bars the integration tests feed (skipped when absent). Skip them with
# WIDGETHOST_NO_BARS=1.
if [ -z "${WIDGETHOST_NO_BARS:-}" ]; then
    command -v i3blocks >/dev/null || missing+=(i3blocks)
    command -v conky >/dev/null || missing+=(conky-cli)
fi
[ ${#missing[@]} -eq 0 ] && exit 0
echo "installing: ${missing[*]}" >&2
if [ "$(id -u)" -eq 0 ]; then SUDO=""; else SUDO="sudo"; fi
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
