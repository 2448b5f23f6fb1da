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

/* pidfd_open(2): syscall() is variadic, which Swift cannot call. */
static inline int widgethost_desktop_pidfd_open(int pid) {
#ifdef SYS_pidfd_open
    return (int)syscall(SYS_pidfd_open, pid, 0);
#else
    return -1;
#endif
}
#endif
