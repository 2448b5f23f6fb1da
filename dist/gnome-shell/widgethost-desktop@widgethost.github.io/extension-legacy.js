// GNOME Shell 42–44 (legacy imports): scripts/install.sh installs this file as extension.js there;
// extension.js is the ES module form for 45 and later. Both only hand the Shell's libraries to
// surfaceKeeper.js, loaded here with a dynamic import (GJS 1.72+).
/* exported init */
const {GLib, Gio, Meta, Shell} = imports.gi;
const Main = imports.ui.main;
const Config = imports.misc.config;
const Me = imports.misc.extensionUtils.getCurrentExtension();

class WidgetHostDesktopExtension {
    enable() {
        const shellMajor = parseInt(Config.PACKAGE_VERSION, 10);
        const generation = this._generation = (this._generation ?? 0) + 1;
        import(`file://${Me.path}/surfaceKeeper.js`).then(({SurfaceKeeper}) => {
            if (generation !== this._generation)
                return;   // disabled meanwhile
            this._keeper = new SurfaceKeeper({GLib, Gio, Meta, Shell, Main, shellMajor});
            this._keeper.enable();
        }).catch(e => logError(e, 'widgethost-desktop@widgethost.github.io'));
    }

    disable() {
        this._generation = (this._generation ?? 0) + 1;
        this._keeper?.disable();
        this._keeper = null;
    }
}

function init() {
    return new WidgetHostDesktopExtension();
}
