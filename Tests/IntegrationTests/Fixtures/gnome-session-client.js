// What GnomeDesktopTests ask a running GNOME Shell, run with gjs inside the session (as its user,
// on its session bus), through the Shell's own D-Bus interfaces — no Eval:
//   gjs gnome-session-client.js screenshot FILE   org.gnome.Shell.Screenshot (the whole screen, no cursor)
//   gjs gnome-session-client.js click X Y W H     a left click at (X, Y) of a W × H screen with a virtual pointer of
//                                                 org.gnome.Mutter.RemoteDesktop
//   gjs gnome-session-client.js key KEYSYM        a key pressed and released on a virtual keyboard
//                                                 (RemoteDesktop; 0xff1b is Escape)
//   gjs gnome-session-client.js state             the extension's test interface: windows, work area, …
//   gjs gnome-session-client.js overview          the windows the Overview shows
// Prints what it got on stdout; exits 1 with the error on stderr.
const {Gio, GLib} = imports.gi;

const bus = Gio.DBus.session;

function call(name, path, iface, method, params, replyType) {
    return bus.call_sync(name, path, iface, method, params ?? null,
        replyType ? new GLib.VariantType(replyType) : null, Gio.DBusCallFlags.NONE, 30000, null);
}

function testInterface(method) {
    const [json] = call('org.gnome.Shell', '/io/github/widgethost/DesktopSurfaceTest',
        'io.github.widgethost.DesktopSurfaceTest', method, null, '(s)').deepUnpack();
    print(json);
}

const [command, ...args] = ARGV;
try {
    switch (command) {
    case 'screenshot': {
        // GNOME 43 takes screenshots only for a few well-known names: this process takes one.
        call('org.freedesktop.DBus', '/org/freedesktop/DBus', 'org.freedesktop.DBus', 'RequestName',
            new GLib.Variant('(su)', ['org.gnome.Screenshot', 4]), '(u)');
        const [ok, used] = call('org.gnome.Shell.Screenshot', '/org/gnome/Shell/Screenshot', 'org.gnome.Shell.Screenshot',
            'Screenshot', new GLib.Variant('(bbs)', [false, false, args[0]]), '(bs)').deepUnpack();
        if (!ok)
            throw new Error('the Shell took no screenshot');
        print(used);
        break;
    }
    case 'click':
    case 'key': {
        const [session] = call('org.gnome.Mutter.RemoteDesktop', '/org/gnome/Mutter/RemoteDesktop',
            'org.gnome.Mutter.RemoteDesktop', 'CreateSession', null, '(o)').deepUnpack();
        const send = (method, params) => call('org.gnome.Mutter.RemoteDesktop', session,
            'org.gnome.Mutter.RemoteDesktop.Session', method, params, null);
        send('Start');
        if (command === 'key') {
            const keysym = Number(args[0]);
            send('NotifyKeyboardKeysym', new GLib.Variant('(ub)', [keysym, true]));
            GLib.usleep(100000);
            send('NotifyKeyboardKeysym', new GLib.Variant('(ub)', [keysym, false]));
        } else {
            const [x, y, width, height] = args.map(Number);
            // Relative motion only (absolute needs a screen-cast stream): into the bottom-right
            // corner of the screen (width × height), where the pointer stops, then to the point.
            // Not the top-left corner: the hot corner's pressure barriers hold the pointer there.
            send('NotifyPointerMotionRelative', new GLib.Variant('(dd)', [10000, 10000]));
            GLib.usleep(100000);
            send('NotifyPointerMotionRelative', new GLib.Variant('(dd)', [x - (width - 1), y - (height - 1)]));
            GLib.usleep(200000);
            const BTN_LEFT = 0x110;
            send('NotifyPointerButton', new GLib.Variant('(ib)', [BTN_LEFT, true]));
            GLib.usleep(100000);
            send('NotifyPointerButton', new GLib.Variant('(ib)', [BTN_LEFT, false]));
        }
        GLib.usleep(200000);
        send('Stop');
        break;
    }
    case 'state':
        testInterface('State');
        break;
    case 'overview':
        testInterface('OverviewWindows');
        break;
    default:
        throw new Error(`unknown command ${command}`);
    }
} catch (e) {
    printerr(e.message);
    imports.system.exit(1);
}
