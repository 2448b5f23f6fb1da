#ifndef WIDGETHOST_CX11_SHIM_H
#define WIDGETHOST_CX11_SHIM_H
/* Xlib, the Shape and MIT-SHM extensions (libXext), RandR (libXrandr) and XFixes (libXfixes: a
   drag's start and end seen through XdndSelection's owner), for the lean desktop surface's
   X11DesktopBackend (pkg-config x11, xext, xrandr, xfixes; apt libx11-dev, libxext-dev,
   libxrandr-dev, libxfixes-dev). Only widgethost-desktop links this module. */
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <X11/Xatom.h>
#include <X11/Xresource.h>
#include <X11/keysym.h>
#include <X11/extensions/shape.h>
#include <X11/extensions/XShm.h>
#include <X11/extensions/Xrandr.h>
#include <X11/extensions/Xfixes.h>
#include <sys/ipc.h>
#include <sys/shm.h>
#include <unistd.h>

/* Xlib's lost-connection handler must not return: it says why and exits 1. */
static int widgethost_x11_io_error(Display *display) {
    (void)display;
    static const char message[] = "widgethost-desktop: the display went away; stopping\n";
    ssize_t ignored = write(2, message, sizeof message - 1);
    (void)ignored;
    _exit(1);
}

/* Protocol errors (a window gone between two requests, MIT-SHM refused by a remote server) are
   counted, not fatal: Xlib's default handler exits. */
static inline int *widgethost_x11_error_counter(void) {
    static int count;
    return &count;
}
static int widgethost_x11_error(Display *display, XErrorEvent *event) {
    (void)display; (void)event;
    (*widgethost_x11_error_counter())++;
    return 0;
}

static inline void widgethost_x11_install_handlers(void) {
    XSetIOErrorHandler(widgethost_x11_io_error);
    XSetErrorHandler(widgethost_x11_error);
}

static inline int widgethost_x11_errors(void) { return *widgethost_x11_error_counter(); }

/* Xlib macros Swift cannot see. */
static inline int widgethost_x11_connection_number(Display *d) { return ConnectionNumber(d); }
static inline int widgethost_x11_default_screen(Display *d) { return DefaultScreen(d); }
static inline Window widgethost_x11_root(Display *d, int screen) { return RootWindow(d, screen); }
static inline int widgethost_x11_width(Display *d, int screen) { return DisplayWidth(d, screen); }
static inline int widgethost_x11_height(Display *d, int screen) { return DisplayHeight(d, screen); }
static inline Visual *widgethost_x11_default_visual(Display *d, int screen) { return DefaultVisual(d, screen); }
static inline int widgethost_x11_default_depth(Display *d, int screen) { return DefaultDepth(d, screen); }
static inline void widgethost_x11_destroy_image(XImage *image) { image->data = NULL; XDestroyImage(image); }
#endif
