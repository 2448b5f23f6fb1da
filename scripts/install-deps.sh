#!/usr/bin/env bash
# Installs what WidgetHost needs beyond Swift itself: libuv (Debian's libuv1-dev), pkg-config
# and a C compiler (tests build fixture plugins in C). Idempotent; quiet when all is present.
set -euo pipefail
missing=()
pkg-config --exists libuv 2>/dev/null || missing+=(libuv1-dev)
command -v pkg-config >/dev/null || missing+=(pkg-config)
command -v cc >/dev/null || missing+=(gcc)
[ ${#missing[@]} -eq 0 ] && exit 0
echo "installing: ${missing[*]}" >&2
if [ "$(id -u)" -eq 0 ]; then SUDO=""; else SUDO="sudo"; fi
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
