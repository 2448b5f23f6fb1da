#!/usr/bin/env bash
# Installs what WidgetHost needs beyond Swift itself: libuv (Debian's libuv1-dev), pkg-config
# and a C compiler (tests build fixture plugins in C); Cairo, Pango and fonts for pictures; GTK and
# gtk-layer-shell for widgethost-desktop; libwayland for its Wayland backend; systemd
# (systemd-analyze verifies the units); the real status bars the status-bar tests run.
# Idempotent; quiet when all is present.
set -euo pipefail
missing=()
pkg-config --exists libuv 2>/dev/null || missing+=(libuv1-dev)
command -v pkg-config >/dev/null || missing+=(pkg-config)
command -v cc >/dev/null || missing+=(gcc)
# fontconfig and Debian's default fonts: the glyph-coverage test asks fc-list which symbols the
# fonts bars fall back to can show.
command -v fc-list >/dev/null || missing+=(fontconfig)
[ -e /usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf ] || missing+=(fonts-dejavu-core)
# The World Clock bundle reads its cities' zones (Examples/WorldClockWidget/ZoneInfo.swift).
[ -f /usr/share/zoneinfo/Asia/Tokyo ] || missing+=(tzdata)
# GTK 3 and gtk-layer-shell for widgethost-desktop (the daemon never links them).
pkg-config --exists gtk+-3.0 2>/dev/null || missing+=(libgtk-3-dev)
pkg-config --exists gtk-layer-shell-0 2>/dev/null || missing+=(libgtk-layer-shell-dev)
# Xlib, Xext (Shape, MIT-SHM), RandR and XFixes for the lean desktop surface's X11 backend.
pkg-config --exists x11 xext xrandr xfixes 2>/dev/null || missing+=(libx11-dev libxext-dev libxrandr-dev libxfixes-dev)
# libwayland-client for widgethost-desktop's Wayland backend; wayland-scanner (libwayland-bin) and
# wayland-protocols to regenerate its protocol code (scripts/generate-wayland-protocols.sh).
pkg-config --exists wayland-client 2>/dev/null || missing+=(libwayland-dev)
command -v wayland-scanner >/dev/null || missing+=(libwayland-bin)
pkg-config --exists wayland-protocols 2>/dev/null || missing+=(wayland-protocols)
# libdbus-1 for the lean desktop surface's AT-SPI bridge (WidgetDesktopAccessibility).
pkg-config --exists dbus-1 2>/dev/null || missing+=(libdbus-1-dev)
# libical 3 for the calendar bundle (Examples/CalendarWidget): iCalendar parsing, RRULE and time zones.
pkg-config --exists libical 2>/dev/null || missing+=(libical-dev)
# xdg-dbus-proxy: a worker whose bundle declares bus names reaches the session bus only through it.
command -v xdg-dbus-proxy >/dev/null || missing+=(xdg-dbus-proxy)
# NowPlayingWidgetTests: a private dbus-daemon, a minimal MPRIS player in Python (Gio), dbus-send.
command -v dbus-send >/dev/null && /usr/bin/python3 -c "from gi.repository import Gio" 2>/dev/null || missing+=(dbus-daemon dbus-bin python3-gi gir1.2-glib-2.0)
# systemd-analyze: the tests verify the shipped user units (dist/systemd/).
command -v systemd-analyze >/dev/null || missing+=(systemd)
# Pictures (WidgetGraphics): Cairo and Pango, and the fonts the renderer names and the picture
# goldens are pinned to (Tests/WidgetGraphicsTests/Fixtures/fonts.conf).
pkg-config --exists cairo pangocairo 2>/dev/null || missing+=(libcairo2-dev libpango1.0-dev)
pkg-config --exists libjpeg 2>/dev/null || missing+=(libjpeg-dev)  # JPEG images (WidgetGraphics; libjpeg-turbo)
[ -f /usr/share/fonts/opentype/inter/Inter-Regular.otf ] || missing+=(fonts-inter)
[ -f /usr/share/fonts/truetype/material-design-icons-iconfont/MaterialIcons-Regular.ttf ] || missing+=(fonts-material-design-icons-iconfont)
# .fontDesign(.rounded): Quicksand (SIL OFL 1.1), the rounded face nearest SF Pro Rounded.
[ -f /usr/share/fonts/truetype/quicksand/Quicksand-Bold.ttf ] || missing+=(fonts-quicksand)
# Optional: real status bars the integration tests feed (skipped when absent). Skip them with
# WIDGETHOST_NO_BARS=1.
if [ -z "${WIDGETHOST_NO_BARS:-}" ]; then
    command -v i3blocks >/dev/null || missing+=(i3blocks)
    # conky-std (Debian's `conky`): the console recipe and, with X and Imlib2, the ${image}
    # desktop recipe (conky-cli has neither X nor Imlib2; conky-std replaces it).
    conky -v 2>/dev/null | grep Imlib2 >/dev/null || missing+=(conky-std)   # no -q: conky must not get SIGPIPE
    # RealBarTests: the bars themselves, headless (Xvfb; sway's headless backend), screen
    # grabbers (X11, Wayland) and a pointer for clicks (their font, DejaVu Sans Mono, is above).
    command -v Xvfb >/dev/null || missing+=(xvfb)
    command -v polybar >/dev/null || missing+=(polybar)
    command -v i3 >/dev/null || missing+=(i3-wm)
    command -v sway >/dev/null || missing+=(sway)
    command -v waybar >/dev/null || missing+=(waybar)
    command -v grim >/dev/null || missing+=(grim)
    command -v import >/dev/null || missing+=(imagemagick)
    command -v xdotool >/dev/null || missing+=(xdotool)
    # DesktopSurfaceTests: xprop and xwininfo read the desktop window's type, state and place;
    # xmessage is a window to cover it with.
    command -v xprop >/dev/null || missing+=(x11-utils)
    # ... and a window manager with desktop windows (as GNOME's, KDE's, Xfce's) to stack it under.
    command -v openbox >/dev/null || missing+=(openbox)
    # EditorTests: widgethost-edit driven through AT-SPI (a private session bus starts
    # at-spi-bus-launcher and at-spi2-registryd) by a Python script using GObject's Atspi.
    command -v dbus-run-session >/dev/null || missing+=(dbus-daemon)
    [ -x /usr/libexec/at-spi-bus-launcher ] || missing+=(at-spi2-core)
    /usr/bin/python3 -c "import gi; gi.require_version('Atspi', '2.0')" 2>/dev/null || missing+=(python3-gi gir1.2-atspi-2.0)
    # DesktopColorSchemeTests: the real XDG desktop portal and its GTK backend (started by a
    # private session bus, on Xvfb) relay color-scheme from GSettings (gsettings, libglib2.0-bin).
    [ -x /usr/libexec/xdg-desktop-portal ] || missing+=(xdg-desktop-portal)
    [ -x /usr/libexec/xdg-desktop-portal-gtk ] || missing+=(xdg-desktop-portal-gtk)
    command -v gsettings >/dev/null || missing+=(libglib2.0-bin)
    # GnomeDesktopTests: a headless GNOME Shell 43 (Wayland, Xwayland on demand) with the shipped
    # extension; gjs asks it for screenshots and input (Tests/IntegrationTests/Fixtures/gnome-session-client.js).
    command -v gnome-shell >/dev/null || missing+=(gnome-shell)
    command -v Xwayland >/dev/null || missing+=(xwayland)
    command -v gjs >/dev/null || missing+=(gjs)
    # DesktopEnvironmentTests: the desktops users run, as they start — sway's stock config draws
    # its wallpaper with swaybg; KDE Plasma (kwin_wayland, plasmashell, kactivitymanagerd: some
    # 560 packages, 600 MB) and Xfce (xfwm4, xfdesktop); a session bus of their own
    # (dbus-daemon) and KWin's scripting reached with gdbus.
    command -v swaybg >/dev/null || missing+=(swaybg)
    command -v kwin_wayland >/dev/null || missing+=(kwin-wayland)
    command -v plasmashell >/dev/null || missing+=(plasma-workspace)
    command -v xfwm4 >/dev/null || missing+=(xfwm4)
    command -v xfdesktop >/dev/null || missing+=(xfdesktop4)
    command -v dbus-daemon >/dev/null || missing+=(dbus-daemon)
    command -v gdbus >/dev/null || missing+=(libglib2.0-bin)
    # MonitorTests: monitors plugged and unplugged with xrandr on Xorg's dummy driver (Xvfb's
    # RandR has one fixed output; `xrandr --setmonitor` there sends no RandR event).
    [ -x /usr/lib/xorg/Xorg ] || missing+=(xserver-xorg-core)
    [ -f /usr/lib/xorg/modules/drivers/dummy_drv.so ] || missing+=(xserver-xorg-video-dummy)
fi
if [ "$(id -u)" -eq 0 ]; then SUDO=""; else SUDO="sudo"; fi
if [ ${#missing[@]} -gt 0 ]; then
    echo "installing: ${missing[*]}" >&2
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# SwiftPM refuses `-pthread` in a system library's pkg-config flags (GLib's gio and everything
# above it have it) and warns on every fresh build. Our system-library targets name
# `widgethost-<name>.pc` files with the same flags less `-pthread` (glibc needs no flag for
# threads), written here into /usr/local/lib/pkgconfig and rewritten when the source changes.
write_pc() {  # widgethost name, pkg-config package
    local dir=/usr/local/lib/pkgconfig file="/usr/local/lib/pkgconfig/widgethost-$1.pc" text
    text="Name: widgethost-$1
Description: $2 without -pthread, for SwiftPM (generated by WidgetHost's scripts/install-deps.sh)
Version: $(pkg-config --modversion "$2")
Cflags: $(pkg-config --cflags "$2" | sed 's/ *-pthread//g')
Libs: $(pkg-config --libs "$2" | sed 's/ *-pthread//g')"
    [ -f "$file" ] && [ "$(cat "$file")" = "$text" ] && return 0
    $SUDO mkdir -p "$dir"
    printf '%s\n' "$text" | $SUDO tee "$file" >/dev/null
}
write_pc gtk gtk-layer-shell-0
write_pc pangocairo pangocairo
