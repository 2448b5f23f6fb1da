#!/usr/bin/env bash
# Installs what WidgetHost needs beyond Swift itself: libuv (Debian's libuv1-dev), pkg-config
# and a C compiler (tests build fixture plugins in C); systemd (systemd-analyze verifies the units); i3blocks and conky-cli for the status-bar tests. Idempotent; quiet when all is present.
set -euo pipefail
missing=()
pkg-config --exists libuv 2>/dev/null || missing+=(libuv1-dev)
command -v pkg-config >/dev/null || missing+=(pkg-config)
command -v cc >/dev/null || missing+=(gcc)
# systemd-analyze: the tests verify the shipped user units (dist/systemd/).
command -v systemd-analyze >/dev/null || missing+=(systemd)
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
