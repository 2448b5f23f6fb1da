// GNOME Shell 45 and later (ES modules). scripts/install.sh installs extension-legacy.js in its
// place for GNOME 42–44. Both only hand the Shell's libraries to surfaceKeeper.js.
import GLib from 'gi://GLib';
import Gio from 'gi://Gio';
import Meta from 'gi://Meta';
import Shell from 'gi://Shell';
import * as Main from 'resource:///org/gnome/shell/ui/main.js';
import * as Config from 'resource:///org/gnome/shell/misc/config.js';
import {Extension} from 'resource:///org/gnome/shell/extensions/extension.js';
import {SurfaceKeeper} from './surfaceKeeper.js';

export default class WidgetHostDesktopExtension extends Extension {
    enable() {
        const shellMajor = parseInt(Config.PACKAGE_VERSION, 10);
        this._keeper = new SurfaceKeeper({GLib, Gio, Meta, Shell, Main, shellMajor});
        this._keeper.enable();
    }

    disable() {
        this._keeper?.disable();
        this._keeper = null;
    }
}
