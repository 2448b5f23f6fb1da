#!/usr/bin/env bash
# Generates the C code of the Wayland protocols in Sources/CWayland with wayland-scanner: the
# marshalling tables (Sources/CWayland/<protocol>-protocol.c) and the inline request wrappers
# and listener structs (Sources/CWayland/include/<protocol>-client-protocol.h). The XML is the
# system's wayland-protocols (Debian's `wayland-protocols`) and Protocols/ (wlr-protocols, not
# packaged). The committed output is what this writes, byte for byte (WaylandDesktopTests checks
# it): run it after changing a protocol, with the wayland-scanner named in the generated headers.
# Usage: scripts/generate-wayland-protocols.sh [OUTPUT_DIR]   (default: Sources/CWayland)
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-Sources/CWayland}"
system="$(pkg-config --variable=pkgdatadir wayland-protocols)"
protocols=(
    "$system/stable/xdg-shell/xdg-shell.xml"
    "$system/stable/viewporter/viewporter.xml"
    "$system/unstable/xdg-output/xdg-output-unstable-v1.xml"
    "$system/staging/fractional-scale/fractional-scale-v1.xml"
    "Protocols/wlr-layer-shell-unstable-v1.xml"
    "Protocols/wlr-virtual-pointer-unstable-v1.xml"
)
mkdir -p "$out/include"
for xml in "${protocols[@]}"; do
    name="$(basename "$xml" .xml)"
    wayland-scanner client-header "$xml" "$out/include/$name-client-protocol.h"
    wayland-scanner private-code "$xml" "$out/$name-protocol.c"
done
