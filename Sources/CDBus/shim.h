#ifndef WIDGETHOST_CDBUS_SHIM_H
#define WIDGETHOST_CDBUS_SHIM_H
/* libdbus-1 (pkg-config dbus-1, apt libdbus-1-dev), for the lean desktop surface's AT-SPI
   bridge (WidgetDesktopAccessibility) and the SDK's SessionBus (in plugins that declare bus
   names): the daemon never links it. */
#include <dbus/dbus.h>

/* Appends a string-like basic value (s, o, g): libdbus takes the address of the pointer. */
static inline dbus_bool_t widgethost_dbus_append_string(DBusMessageIter *iter, int type, const char *value) {
    return dbus_message_iter_append_basic(iter, type, &value);
}
/* Reads a string-like basic value at the iterator. */
static inline const char *widgethost_dbus_get_string(DBusMessageIter *iter) {
    const char *value = 0;
    dbus_message_iter_get_basic(iter, &value);
    return value;
}
#endif
