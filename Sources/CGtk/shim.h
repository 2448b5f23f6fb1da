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

/* pidfd_open(2): syscall() is variadic, which Swift cannot call. */
static inline int widgethost_desktop_pidfd_open(int pid) {
#ifdef SYS_pidfd_open
    return (int)syscall(SYS_pidfd_open, pid, 0);
#else
    return -1;
#endif
}
#endif
