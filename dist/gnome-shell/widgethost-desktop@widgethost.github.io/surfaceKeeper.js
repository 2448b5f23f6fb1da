// The WidgetHost desktop surface on GNOME Shell: GNOME has no layer-shell, so this extension starts
// `widgethost-desktop` itself as a Meta.WaylandClient (only that process's windows are recognised,
// as GNOME's desktop-icons extension does) and keeps those windows on the desktop layer: below
// every window, on every workspace, never focused, out of Overview, Alt-Tab, the dash and window
// lists, at the configured corner of the primary monitor's work area. It restarts the surface when
// it exits abnormally (with backoff) and stops it when the extension is disabled.
//
// An ES module that imports nothing: each Shell generation's entry file (extension.js for 45+,
// extension-legacy.js for 42–44) passes in the libraries it gets its own way. Runs on the Shell's
// main loop only. docs/desktop.md, "GNOME".

const UUID = 'widgethost-desktop@widgethost.github.io';
// What the surface reads to know it was started here (Sources/widgethost-desktop/GnomeSessionMode.swift).
const MARKER = 'WIDGETHOST_GNOME_EXTENSION';
// Restart delays after an abnormal exit: 1 s, doubled each time up to a minute; a surface that ran
// a minute starts again from 1 s.
const FIRST_DELAY_S = 1, LAST_DELAY_S = 60, STEADY_S = 60;

const TEST_INTERFACE = `<node>
  <interface name="io.github.widgethost.DesktopSurfaceTest">
    <method name="State"><arg type="s" direction="out" name="json"/></method>
    <method name="OverviewWindows"><arg type="s" direction="out" name="json"/></method>
  </interface>
</node>`;

export class SurfaceKeeper {
    /// `lib`: {GLib, Gio, Meta, Shell, Main, shellMajor}.
    constructor(lib) {
        this._lib = lib;
        this._client = null;
        this._process = null;
        this._pid = null;
        this._starts = 0;
        this._delay = FIRST_DELAY_S;
        this._restartId = 0;
        this._kept = new Map();   // MetaWindow → [signal ids]
        this._displaySignals = [];
        this._enabled = false;
    }

    enable() {
        const {Meta} = this._lib;
        this._enabled = true;
        const display = global.display;
        this._displaySignals = [
            display.connect('window-created', (_d, window) => this._adoptWhenShown(window)),
            display.connect('workareas-changed', () => this._kept.forEach((_ids, w) => this._place(w))),
        ];
        if (this._lib.GLib.getenv('WIDGETHOST_GNOME_TEST'))
            this._exportTestInterface();
        if (!Meta.is_wayland_compositor()) {
            // An X11 session: the surface makes its own desktop window there; nothing to keep.
            this._log('GNOME on X11: start widgethost-desktop as usual, it makes an X11 desktop window');
            return;
        }
        this._launch();
    }

    disable() {
        this._enabled = false;
        const {GLib} = this._lib;
        if (this._restartId) {
            GLib.source_remove(this._restartId);
            this._restartId = 0;
        }
        this._displaySignals.forEach(id => global.display.disconnect(id));
        this._displaySignals = [];
        this._kept.forEach((ids, window) => ids.forEach(id => window.disconnect(id)));
        this._kept.clear();
        if (this._testExport) {
            this._testExport.unexport();
            this._testExport = null;
        }
        if (this._process) {
            const process = this._process;
            this._process = null;
            process.send_signal(15);   // SIGTERM: the surface ends with status 0
            GLib.timeout_add_seconds(GLib.PRIORITY_DEFAULT, 5, () => {
                if (!process.get_identifier())
                    return GLib.SOURCE_REMOVE;
                process.force_exit();
                return GLib.SOURCE_REMOVE;
            });
        }
        this._client = null;
    }

    // MARK: - The process

    /// `widgethost-desktop` where scripts/install.sh puts it, else on the Shell's PATH.
    _program() {
        const {GLib} = this._lib;
        const installed = GLib.build_filenamev([GLib.get_home_dir(), '.local', 'bin', 'widgethost-desktop']);
        if (GLib.file_test(installed, GLib.FileTest.IS_EXECUTABLE))
            return installed;
        return GLib.find_program_in_path('widgethost-desktop');
    }

    _launch() {
        const {Gio, Meta, GLib} = this._lib;
        this._restartId = 0;
        const program = this._program();
        if (!program) {
            this._log('widgethost-desktop is neither in ~/.local/bin nor on PATH: install WidgetHost (scripts/install.sh --user)');
            return;
        }
        const launcher = new Gio.SubprocessLauncher({flags: Gio.SubprocessFlags.NONE});
        launcher.setenv(MARKER, '1', true);
        // Only this client's Wayland socket: never an X11 window the extension cannot recognise.
        launcher.unsetenv('DISPLAY');
        const argv = [program];
        let client, process;
        try {
            if (Meta.WaylandClient.new_subprocess) {            // 46+
                client = Meta.WaylandClient.new_subprocess(global.context, launcher, argv);
                process = client.get_subprocess();
            } else {
                client = this._lib.shellMajor >= 44             // 44, 45
                    ? Meta.WaylandClient.new(global.context, launcher)
                    : Meta.WaylandClient.new(launcher);         // 42, 43
                process = client.spawnv(global.display, argv);
            }
        } catch (e) {
            this._log(`cannot start ${program}: ${e.message}`);
            this._scheduleRestart();
            return;
        }
        this._client = client;
        this._process = process;
        this._pid = process.get_identifier();
        this._starts += 1;
        const started = GLib.get_monotonic_time();
        this._log(`started ${program} (pid ${this._pid})`);
        process.wait_async(null, (p, result) => {
            try {
                p.wait_finish(result);
            } catch (e) {
                this._log(`lost track of the surface: ${e.message}`);
            }
            if (p !== this._process)
                return;   // stopped by disable()
            this._process = null;
            this._client = null;
            this._pid = null;
            const clean = p.get_if_exited() && p.get_exit_status() === 0;
            const how = p.get_if_exited() ? `exited with status ${p.get_exit_status()}` : `was killed by signal ${p.get_term_sig()}`;
            if (clean) {
                this._log(`widgethost-desktop ${how}; not restarting (disable and enable the extension to start it again)`);
                return;
            }
            if ((GLib.get_monotonic_time() - started) / 1e6 >= STEADY_S)
                this._delay = FIRST_DELAY_S;
            this._log(`widgethost-desktop ${how}; starting it again in ${this._delay} s`);
            this._scheduleRestart();
        });
    }

    _scheduleRestart() {
        if (!this._enabled)
            return;
        const {GLib} = this._lib;
        const delay = this._delay;
        this._delay = Math.min(LAST_DELAY_S, this._delay * 2);
        this._restartId = GLib.timeout_add_seconds(GLib.PRIORITY_DEFAULT, delay, () => {
            this._launch();
            return GLib.SOURCE_REMOVE;
        });
    }

    // MARK: - The surface's windows

    _ours(window) {
        return this._client !== null && this._client.owns_window(window);
    }

    /// A window of the surface's client, once mutter has placed and shown it (changing a Wayland
    /// window before its first commit is placed crashed mutter 43).
    _adoptWhenShown(window) {
        if (!this._ours(window))
            return;
        const id = window.connect('shown', () => {
            window.disconnect(id);
            this._adopt(window);
        });
    }

    /// A window of the surface's client: kept on the desktop layer for as long as it lives.
    _adopt(window) {
        if (!this._ours(window) || this._kept.has(window))
            return;
        const client = this._client;
        if (client.make_desktop)        // newer mutter than 43: a real desktop-type window
            client.make_desktop(window);
        else
            client.hide_from_window_list(window);   // skip-taskbar: out of Alt-Tab, Overview, dash, window lists
        window.stick();
        const ids = [
            window.connect_after('raised', () => window.lower()),
            window.connect('notify::above', () => window.above && window.unmake_above()),
            window.connect('notify::minimized', () => window.minimized && window.unminimize()),
            window.connect('focus', () => this._giveFocusAway(window)),
            window.connect('size-changed', () => this._place(window)),
            window.connect('position-changed', () => this._place(window)),
            window.connect('shown', () => {
                this._place(window);
                window.lower();
            }),
            window.connect('unmanaged', () => {
                (this._kept.get(window) || []).forEach(id => window.disconnect(id));
                this._kept.delete(window);
            }),
        ];
        this._kept.set(window, ids);
        window.lower();
        this._place(window);
        this._giveFocusAway(window);
    }

    /// The desktop takes no focus: the top-most other window of the workspace gets it back.
    _giveFocusAway(window) {
        const {Meta, GLib, Main} = this._lib;
        GLib.idle_add(GLib.PRIORITY_DEFAULT, () => {
            if (!this._kept.has(window) || !window.has_focus())
                return GLib.SOURCE_REMOVE;
            const workspace = global.workspace_manager.get_active_workspace();
            const other = global.display.get_tab_list(Meta.TabList.NORMAL_ALL, workspace)
                .find(w => !this._kept.has(w) && !w.minimized);
            if (other)
                Main.activateWindow(other);
            else
                global.display.unset_input_focus(global.get_current_time());
            return GLib.SOURCE_REMOVE;
        });
    }

    /// The configured corner of the primary monitor's work area, `desktop.margin` logical points
    /// in (the surface's window is sized in logical points too), from the config the surface reads.
    _place(window) {
        if (!this._kept.has(window))
            return;
        const desktop = this._desktopConfig();
        const monitor = global.display.get_primary_monitor();
        const area = window.get_work_area_for_monitor(monitor);
        const frame = window.get_frame_rect();
        const margin = Math.round(desktop.margin);
        const left = desktop.anchor.endsWith('left'), top = desktop.anchor.startsWith('top');
        const x = left ? area.x + margin : area.x + area.width - margin - frame.width;
        const y = top ? area.y + margin : area.y + area.height - margin - frame.height;
        if (frame.x !== x || frame.y !== y)
            window.move_frame(false, x, y);
    }

    /// `desktop.anchor` and `margin` of $XDG_CONFIG_HOME/widgethost/config.json, with the
    /// surface's defaults (docs/desktop.md) for what is missing or unreadable.
    _desktopConfig() {
        const {GLib} = this._lib;
        const result = {anchor: 'top-right', margin: 32};
        try {
            const path = GLib.build_filenamev([GLib.get_user_config_dir(), 'widgethost', 'config.json']);
            const [ok, bytes] = GLib.file_get_contents(path);
            const desktop = ok ? JSON.parse(new TextDecoder().decode(bytes)).desktop : null;
            if (desktop && ['top-left', 'top-right', 'bottom-left', 'bottom-right'].includes(desktop.anchor))
                result.anchor = desktop.anchor;
            if (desktop && Number.isFinite(desktop.margin))
                result.margin = desktop.margin;
        } catch (e) {
            // No config, or not JSON: the surface says what is wrong with it; place by the defaults.
        }
        return result;
    }

    _log(message) {
        console.log(`${UUID}: ${message}`);
    }

    // MARK: - What the tests ask (only with WIDGETHOST_GNOME_TEST set in the Shell's environment)

    _exportTestInterface() {
        const {Gio} = this._lib;
        this._testExport = Gio.DBusExportedObject.wrapJSObject(TEST_INTERFACE, {
            State: () => JSON.stringify(this._state()),
            OverviewWindowsAsync: (_params, invocation) => this._overviewWindows(invocation),
        });
        this._testExport.export(Gio.DBus.session, '/io/github/widgethost/DesktopSurfaceTest');
    }

    _state() {
        const {Meta, Shell, GLib, Main} = this._lib;
        const workspace = global.workspace_manager.get_active_workspace();
        const altTab = global.display.get_tab_list(Meta.TabList.NORMAL, workspace);
        const running = Shell.AppSystem.get_default().get_running();
        const area = primaryWorkArea(global.display);
        const focus = global.display.focus_window;
        const windows = global.get_window_actors().map((actor, stackIndex) => {
            const w = actor.get_meta_window();
            const r = w.get_frame_rect();
            const app = running.find(a => a.get_windows().includes(w));
            return {
                title: w.get_title(), pid: w.get_pid(), ours: this._kept.has(w), stackIndex,
                x: r.x, y: r.y, width: r.width, height: r.height,
                clientType: w.get_client_type() === Meta.WindowClientType.X11 ? 'x11' : 'wayland',
                type: Object.keys(Meta.WindowType).find(k => Meta.WindowType[k] === w.get_window_type()),
                onAllWorkspaces: w.is_on_all_workspaces(), skipTaskbar: w.is_skip_taskbar(),
                inAltTab: altTab.includes(w), inDash: app !== undefined, focused: w === focus,
            };
        });
        return {
            display: GLib.getenv('DISPLAY'), xauthority: GLib.getenv('XAUTHORITY'),
            workArea: area, surfacePid: this._pid === null ? null : parseInt(this._pid, 10), surfaceStarts: this._starts, overview: Main.overview.visible,
            pointer: global.get_pointer().slice(0, 2),
            focusApp: Shell.WindowTracker.get_default().focus_app?.get_id() ?? null,
            windows,
        };
    }

    /// Shows the Overview (unless it is up), names the windows it shows (its window previews and
    /// workspace thumbnails), and leaves it as it was.
    _overviewWindows(invocation) {
        const {Main, GLib} = this._lib;
        const wasVisible = Main.overview.visible;
        const answer = () => {
            // Some frames more: the workspace's previews are laid out after 'shown'.
            GLib.timeout_add(GLib.PRIORITY_DEFAULT, 300, () => {
                const titles = new Set();
                const walk = actor => {
                    if (actor.metaWindow)
                        titles.add(actor.metaWindow.get_title());
                    actor.get_children().forEach(walk);
                };
                walk(Main.layoutManager.overviewGroup);
                if (!wasVisible)
                    Main.overview.hide();
                invocation.return_value(new GLib.Variant('(s)', [JSON.stringify([...titles])]));
                return GLib.SOURCE_REMOVE;
            });
        };
        if (wasVisible && !Main.overview.animationInProgress) {
            answer();
            return;
        }
        const shownId = Main.overview.connect('shown', () => {
            Main.overview.disconnect(shownId);
            answer();
        });
        Main.overview.show();
    }
}

/// The primary monitor's work area as a plain object.
function primaryWorkArea(display) {
    const r = display.get_workspace_manager().get_active_workspace().get_work_area_for_monitor(display.get_primary_monitor());
    return {x: r.x, y: r.y, width: r.width, height: r.height};
}
