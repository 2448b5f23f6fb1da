#ifndef WIDGETHOST_CGTK_SHIM_H
#define WIDGETHOST_CGTK_SHIM_H
/* GTK 3, gtk-layer-shell and what widgethost-desktop needs around them (pkg-config
   gtk-layer-shell-0, which pulls in gtk+-3.0; apt libgtk-3-dev, libgtk-layer-shell-dev).
   Only the widgethost-desktop executable links this module: the daemon never loads GTK. */
#include <gtk/gtk.h>
#include <gtk-layer-shell.h>
#include <glib-unix.h>
#include <sys/inotify.h>
#include <sys/syscall.h>
#include <string.h>
#include <unistd.h>
#ifdef GDK_WINDOWING_WAYLAND
#include <gdk/gdkwayland.h>
#endif
#ifdef GDK_WINDOWING_X11
#include <gdk/gdkx.h>
#endif

/* g_signal_connect is a macro; Swift calls this instead. */
static inline gulong widgethost_signal_connect(gpointer instance, const gchar *signal, GCallback handler, gpointer data) {
    return g_signal_connect_data(instance, signal, handler, data, NULL, (GConnectFlags)0);
}

static inline gboolean widgethost_is_wayland(GdkDisplay *display) {
#ifdef GDK_WINDOWING_WAYLAND
    return GDK_IS_WAYLAND_DISPLAY(display);
#else
    return FALSE;
#endif
}

/* GDK's own handler of a lost X connection exits with status 1 and says nothing (GTK 3.24):
   this one says why first. Xlib calls it when the connection breaks; it must not return. */
#ifdef GDK_WINDOWING_X11
static int widgethost_x11_connection_lost(Display *display) {
    (void)display;
    static const char message[] = "widgethost-desktop: the display went away; stopping\n";
    ssize_t ignored = write(2, message, sizeof message - 1);
    (void)ignored;
    _exit(1);
}
#endif

/* Installs the handler above when `display` is an X11 one (after gtk_init). */
static inline void widgethost_x11_report_lost_connection(GdkDisplay *display) {
#ifdef GDK_WINDOWING_X11
    if (GDK_IS_X11_DISPLAY(display)) XSetIOErrorHandler(widgethost_x11_connection_lost);
#else
    (void)display;
#endif
}

/* Whether a GDK message is one of those GDK 3.24's Wayland backend logs just before it exits
   with status 1 because the compositor went away: "Error reading events from display: …",
   "Error flushing display: …", "Error N (…) dispatching to Wayland display." or — when the
   compositor's last bytes and its hang-up arrive together — "Lost connection to Wayland
   compositor." */
static inline gboolean widgethost_gdk_reports_lost_display(const char *domain, const char *message) {
    if (!domain || !message || strcmp(domain, "Gdk") != 0) return FALSE;
    return (g_str_has_prefix(message, "Error") && strstr(message, "display") != NULL)
        || g_str_has_prefix(message, "Lost connection to Wayland compositor");
}

/* On Wayland GDK logs one of the messages above as a structured Gdk message and then exits with
   status 1: this log writer says why the surface stops instead, with GDK's reason; every other
   message goes to GLib's default writer. Set once, before gtk_init. */
static GLogWriterOutput widgethost_log_writer(GLogLevelFlags level, const GLogField *fields, gsize n, gpointer data) {
    const char *domain = NULL, *message = NULL;
    for (gsize i = 0; i < n; i++) {
        if (strcmp(fields[i].key, "GLIB_DOMAIN") == 0 && fields[i].length < 0) domain = fields[i].value;
        if (strcmp(fields[i].key, "MESSAGE") == 0 && fields[i].length < 0) message = fields[i].value;
    }
    if (widgethost_gdk_reports_lost_display(domain, message)) {
        gchar *line = g_strdup_printf("widgethost-desktop: the display went away (%s); stopping\n", message);
        ssize_t ignored = write(2, line, strlen(line));
        (void)ignored;
        g_free(line);
        return G_LOG_WRITER_HANDLED;
    }
    return g_log_writer_default(level, fields, n, data);
}

static inline void widgethost_report_lost_wayland_connection(void) {
    g_log_set_writer_func(widgethost_log_writer, NULL, NULL);
}

/* Whether `display` is X11 with a window manager that does not say it knows desktop windows
   (`_NET_WM_WINDOW_TYPE_DESKTOP` in `_NET_SUPPORTED`): i3, or no window manager at all. Such a
   manager floats a desktop-type window above the others (i3 4.22 does). */
static inline gboolean widgethost_x11_lacks_desktop_windows(GdkDisplay *display) {
#ifdef GDK_WINDOWING_X11
    if (!GDK_IS_X11_DISPLAY(display)) return FALSE;
    return !gdk_x11_screen_supports_net_wm_hint(gdk_display_get_default_screen(display),
                                                gdk_atom_intern_static_string("_NET_WM_WINDOW_TYPE_DESKTOP"));
#else
    (void)display;
    return FALSE;
#endif
}

/* GTK 3's drop target finds the widget under an XdndPosition by its root point minus GDK's
   cached position of the toplevel (gdk_window_get_position), which only ConfigureNotify events
   update. Under openbox, about one start in three, the one ConfigureNotify GDK gets while the
   window is managed is a real one that GDK handles (XTranslateCoordinates) while the frame is
   still at 0,0; the frame then moves to where the window asked to be, and no synthetic
   ConfigureNotify follows (ICCCM 4.1.5: the window did not move from where it asked to be), so
   GDK keeps 0,0 and every drop misses the surface (GTK answers XdndStatus "no"). This compares
   the toplevel's true origin with GDK's cached one and, when they differ, sends the window the
   synthetic ConfigureNotify the manager would have sent (GDK takes the position from it).
   Returns whether it did. X11 only; GTK's main thread. */
static inline gboolean widgethost_x11_sync_toplevel_position(GdkWindow *window) {
#ifdef GDK_WINDOWING_X11
    if (!GDK_IS_X11_WINDOW(window) || !gdk_window_is_viewable(window)) return FALSE;
    GdkDisplay *display = gdk_window_get_display(window);
    Display *xdisplay = GDK_DISPLAY_XDISPLAY(display);
    Window xid = GDK_WINDOW_XID(window), child;
    int scale = gdk_window_get_scale_factor(window), rx = 0, ry = 0, gx = 0, gy = 0;
    gdk_x11_display_error_trap_push(display);
    Bool ok = XTranslateCoordinates(xdisplay, xid, GDK_ROOT_WINDOW(), 0, 0, &rx, &ry, &child);
    if (gdk_x11_display_error_trap_pop(display) || !ok) return FALSE;
    gdk_window_get_position(window, &gx, &gy);
    if (gx * scale == rx && gy * scale == ry) return FALSE;
    XEvent event;
    memset(&event, 0, sizeof event);
    event.xconfigure.type = ConfigureNotify;
    event.xconfigure.send_event = True;
    event.xconfigure.display = xdisplay;
    event.xconfigure.event = xid;
    event.xconfigure.window = xid;
    event.xconfigure.x = rx;
    event.xconfigure.y = ry;
    event.xconfigure.width = gdk_window_get_width(window) * scale;
    event.xconfigure.height = gdk_window_get_height(window) * scale;
    event.xconfigure.above = None;
    event.xconfigure.override_redirect = False;
    gdk_x11_display_error_trap_push(display);
    XSendEvent(xdisplay, xid, False, StructureNotifyMask, &event);
    gdk_x11_display_error_trap_pop_ignored(display);
    return TRUE;
#else
    (void)window;
    return FALSE;
#endif
}

/* pidfd_open(2): syscall() is variadic, which Swift cannot call. */
static inline int widgethost_desktop_pidfd_open(int pid) {
#ifdef SYS_pidfd_open
    return (int)syscall(SYS_pidfd_open, pid, 0);
#else
    return -1;
#endif
}
#endif
