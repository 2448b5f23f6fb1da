#!/usr/bin/env bash
# Installs WidgetHost for the current user in the XDG places (docs/operations.md):
#   ~/.local/bin/widgethost                              the release binary, and beside it
#   ~/.local/bin/widgethost-{worker,render,desktop,desktop-gtk,edit}  the worker, the picture renderer, the desktop surfaces, their editor
#   $XDG_DATA_HOME/widgethost/Plugins/*.so               the example bundles (the default plugin folder)
#   $XDG_CONFIG_HOME/systemd/user/widgethost{,@}.service the user units (dist/systemd/)
#   $XDG_DATA_HOME/bash-completion/completions/widgethost, $XDG_DATA_HOME/zsh/site-functions/_widgethost,
#   $XDG_CONFIG_HOME/fish/completions/widgethost.fish    shell completions
#   $XDG_CONFIG_HOME/widgethost/config.json              a default config (never overwritten)
#   $XDG_DATA_HOME/gnome-shell/extensions/widgethost-desktop@widgethost.github.io/
#                                                        the GNOME Shell extension (dist/gnome-shell/), when
#                                                        gnome-shell is installed, in the form its version loads
# Idempotent: files already up to date are left alone, every file is replaced by a rename (a
# running daemon never sees a torn plugin). Nothing is enabled or started; the last lines say how.
#
# Usage: scripts/install.sh --user [--from DIR] [--no-systemctl]
#        scripts/install.sh --user --uninstall [--no-systemctl]
#   --from DIR      take the executables and the lib*.so bundles from DIR (a build products directory)
#                   instead of building release (also $WIDGETHOST_FROM)
#   --no-systemctl  do not run systemctl --user (daemon-reload, or stop/disable on uninstall)
#   --uninstall     remove what --user installs; config.json stays unless it is still the default,
#                   outputs and state (~/.local/state/widgethost) stay
set -euo pipefail
cd "$(dirname "$0")/.."
repo="$PWD"

user=0 uninstall=0 systemctl=1 from="${WIDGETHOST_FROM:-}"
while [ $# -gt 0 ]; do
  case "$1" in
    --user) user=1 ;;
    --uninstall) uninstall=1 ;;
    --no-systemctl) systemctl=0 ;;
    --from) from="${2:?--from needs a directory}"; shift ;;
    --from=*) from="${1#--from=}" ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "install.sh: unknown argument '$1' (see --help)" >&2; exit 64 ;;
  esac
  shift
done
[ "$user" = 1 ] || { echo "install.sh: only per-user installs exist: pass --user (see --help)" >&2; exit 64; }

: "${HOME:?HOME is not set}"
abs() { case "$1" in /*) echo "$1" ;; *) echo "$2" ;; esac; }
config_home="$(abs "${XDG_CONFIG_HOME:-}" "$HOME/.config")"
data_home="$(abs "${XDG_DATA_HOME:-}" "$HOME/.local/share")"
bin_dir="$HOME/.local/bin"          # where the unit's ExecStart=%h/.local/bin/widgethost looks
plugin_dir="$data_home/widgethost/Plugins"
unit_dir="$config_home/systemd/user"
config_file="$config_home/widgethost/config.json"
bash_completion="$data_home/bash-completion/completions/widgethost"
zsh_completion="$data_home/zsh/site-functions/_widgethost"
fish_completion="$config_home/fish/completions/widgethost.fish"
gnome_uuid="widgethost-desktop@widgethost.github.io"
gnome_extension="$data_home/gnome-shell/extensions/$gnome_uuid"
bundles=(HabitWidget StatsWidget CardioBotWidgets ClockyWidget SystemWidgets WeatherWidget NetworkDiskWidgets CalendarWidget WorldClockWidget BatteriesWidget NowPlayingWidget)
# Found by widgethost beside itself: the worker (every plugin runs in one), the render process
# (png/svg outputs), the desktop surfaces; and their editor (gallery, Edit Widget), which the surface starts.
helpers=(widgethost-worker widgethost-render widgethost-desktop widgethost-desktop-gtk widgethost-edit)

say() { echo "$*" >&2; }
have_systemctl() { [ "$systemctl" = 1 ] && command -v systemctl >/dev/null && systemctl --user show-environment >/dev/null 2>&1; }

# The default config: the repository's config.json without its `paths` (relative to the
# repository), so the daemon uses the XDG defaults.
default_config() { sed '/^  "paths": {/,/^  },/d' "$repo/config.json"; }

# install_file SRC DEST MODE: copy to a temp name beside DEST and rename, unless DEST is already SRC.
install_file() {
  local src="$1" dest="$2" mode="$3"
  mkdir -p "$(dirname "$dest")"
  if cmp -s "$src" "$dest"; then return; fi
  cp "$src" "$dest.tmp.$$" && chmod "$mode" "$dest.tmp.$$" && mv -f "$dest.tmp.$$" "$dest"
  say "installed $dest"
}

remove_file() { if [ -e "$1" ] || [ -L "$1" ]; then rm -f "$1"; say "removed $1"; fi; }

if [ "$uninstall" = 1 ]; then
  if have_systemctl; then
    systemctl --user disable --now widgethost.service 2>/dev/null || true
  fi
  remove_file "$unit_dir/widgethost.service"
  remove_file "$unit_dir/widgethost@.service"
  have_systemctl && systemctl --user daemon-reload || true
  for b in "${bundles[@]}" HelloC; do remove_file "$plugin_dir/$b.so"; done
  rmdir "$plugin_dir" "$data_home/widgethost" 2>/dev/null || true
  remove_file "$bash_completion"; remove_file "$zsh_completion"; remove_file "$fish_completion"
  for f in metadata.json extension.js surfaceKeeper.js; do remove_file "$gnome_extension/$f"; done
  rmdir "$gnome_extension" 2>/dev/null || true
  remove_file "$bin_dir/widgethost"
  for h in "${helpers[@]}"; do remove_file "$bin_dir/$h"; done
  if [ -f "$config_file" ]; then
    if default_config | cmp -s - "$config_file"; then remove_file "$config_file"; rmdir "$config_home/widgethost" 2>/dev/null || true
    else say "kept $config_file (edited)"; fi
  fi
  say "outputs and state (${XDG_STATE_HOME:-$HOME/.local/state}/widgethost) are left in place"
  exit 0
fi

if [ -z "$from" ]; then
  bash scripts/install-deps.sh
  swift build -c release >&2
  from="$(swift build -c release --show-bin-path)"
fi
for x in widgethost "${helpers[@]}"; do [ -x "$from/$x" ] || { echo "install.sh: no $x in $from" >&2; exit 1; }; done
for b in "${bundles[@]}"; do [ -f "$from/lib$b.so" ] || { echo "install.sh: no lib$b.so in $from" >&2; exit 1; }; done

# The helpers first: a daemon started from the new widgethost finds their new versions (a
# running one keeps the worker it opened at start).
for h in "${helpers[@]}"; do install_file "$from/$h" "$bin_dir/$h" 755; done
install_file "$from/widgethost" "$bin_dir/widgethost" 755
mkdir -p "$plugin_dir"
for b in "${bundles[@]}"; do install_file "$from/lib$b.so" "$plugin_dir/$b.so" 644; done
if command -v cc >/dev/null; then
  tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
  cc -shared -fPIC -O2 -I Sources/CWidgetPluginABI/include -o "$tmp/HelloC.so" Examples/CPlugin/hello_widget.c
  install_file "$tmp/HelloC.so" "$plugin_dir/HelloC.so" 644
fi
install_file dist/systemd/widgethost.service "$unit_dir/widgethost.service" 644
install_file dist/systemd/widgethost@.service "$unit_dir/widgethost@.service" 644

completions="$(mktemp -d)"
trap 'rm -rf "$completions" ${tmp:+"$tmp"}' EXIT
for shell in bash zsh fish; do "$bin_dir/widgethost" --generate-completion-script "$shell" > "$completions/$shell"; done
install_file "$completions/bash" "$bash_completion" 644
install_file "$completions/zsh" "$zsh_completion" 644
install_file "$completions/fish" "$fish_completion" 644

# The GNOME Shell extension: GNOME 45 and later load extension.js as an ES module, 42-44 the
# legacy form (extension-legacy.js, installed as extension.js); surfaceKeeper.js is shared.
gnome_shell_major=""
if command -v gnome-shell >/dev/null; then
  gnome_shell_major="$(gnome-shell --version 2>/dev/null | sed -n 's/^GNOME Shell \([0-9][0-9]*\).*/\1/p')"
fi
if [ -n "$gnome_shell_major" ]; then
  src="dist/gnome-shell/$gnome_uuid"
  entry="$src/extension.js"
  [ "$gnome_shell_major" -lt 45 ] && entry="$src/extension-legacy.js"
  install_file "$src/metadata.json" "$gnome_extension/metadata.json" 644
  install_file "$src/surfaceKeeper.js" "$gnome_extension/surfaceKeeper.js" 644
  install_file "$entry" "$gnome_extension/extension.js" 644
fi

if [ -e "$config_file" ]; then
  say "kept $config_file"
else
  default_config > "$completions/config.json"
  install_file "$completions/config.json" "$config_file" 644
fi
"$bin_dir/widgethost" validate --config "$config_file" >/dev/null || say "warning: $config_file does not validate: widgethost validate --config $config_file"

if have_systemctl; then
  systemctl --user daemon-reload
  if systemctl --user is-active --quiet widgethost.service; then
    say "widgethost.service is running the previous binary: systemctl --user restart widgethost"
  fi
fi
case ":$PATH:" in *":$bin_dir:"*) ;; *) say "note: $bin_dir is not on PATH" ;; esac
say "start it with: systemctl --user enable --now widgethost   (logs: journalctl --user -u widgethost)"
if [ -n "$gnome_shell_major" ]; then
  say "GNOME Shell $gnome_shell_major: for widgets on the desktop, log out and in once, then: gnome-extensions enable $gnome_uuid"
  say "  (the extension starts widgethost-desktop itself and keeps it below every window; do not autostart it as well)"
fi
