#include "widgethost_bus.h"

#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* libdbus's public structures, as opaque storage large enough for them (DBusError is 32 bytes,
   DBusMessageIter 72 on 64-bit targets); DBusError starts with its name and message. */
typedef struct { const char *name; const char *message; uintptr_t rest[6]; } wh_error;
typedef struct { uintptr_t storage[16]; } wh_iter;

static struct {
    int loaded;
    void (*error_init)(wh_error *);
    void (*error_free)(wh_error *);
    void *(*open_private)(const char *, wh_error *);
    void (*set_exit_on_disconnect)(void *, unsigned);
    unsigned (*bus_register)(void *, wh_error *);
    unsigned (*get_unix_fd)(void *, int *);
    void (*add_match)(void *, const char *, wh_error *);
    void (*remove_match)(void *, const char *, wh_error *);
    void (*flush)(void *);
    unsigned (*read_write)(void *, int);
    void *(*pop_message)(void *);
    int (*message_type)(void *);
    const char *(*message_interface)(void *);
    const char *(*message_member)(void *);
    const char *(*message_path)(void *);
    unsigned (*iter_init)(void *, wh_iter *);
    int (*iter_arg_type)(wh_iter *);
    void (*iter_basic)(wh_iter *, void *);
    void (*message_unref)(void *);
    void (*close)(void *);
    void (*unref)(void *);
} lib;

struct widgethost_bus { void *connection; };

static int load(char *error, size_t size) {
    if (lib.loaded) return 1;
    void *h = dlopen("libdbus-1.so.3", RTLD_NOW | RTLD_LOCAL);
    if (!h) { snprintf(error, size, "cannot load libdbus-1: %s", dlerror()); return 0; }
#define SYM(field, name) if (!(*(void **)&lib.field = dlsym(h, name))) { snprintf(error, size, "libdbus-1 has no %s", name); return 0; }
    SYM(error_init, "dbus_error_init") SYM(error_free, "dbus_error_free") SYM(open_private, "dbus_connection_open_private")
    SYM(set_exit_on_disconnect, "dbus_connection_set_exit_on_disconnect") SYM(bus_register, "dbus_bus_register")
    SYM(get_unix_fd, "dbus_connection_get_unix_fd") SYM(add_match, "dbus_bus_add_match") SYM(remove_match, "dbus_bus_remove_match")
    SYM(flush, "dbus_connection_flush") SYM(read_write, "dbus_connection_read_write") SYM(pop_message, "dbus_connection_pop_message")
    SYM(message_type, "dbus_message_get_type") SYM(message_interface, "dbus_message_get_interface")
    SYM(message_member, "dbus_message_get_member") SYM(message_path, "dbus_message_get_path")
    SYM(iter_init, "dbus_message_iter_init") SYM(iter_arg_type, "dbus_message_iter_get_arg_type")
    SYM(iter_basic, "dbus_message_iter_get_basic") SYM(message_unref, "dbus_message_unref")
    SYM(close, "dbus_connection_close") SYM(unref, "dbus_connection_unref")
#undef SYM
    lib.loaded = 1;
    return 1;
}

widgethost_bus *widgethost_bus_open(const char *address, char *error, size_t size) {
    if (!load(error, size)) return NULL;
    wh_error e;
    lib.error_init(&e);
    void *c = lib.open_private(address, &e);
    if (c) {
        lib.set_exit_on_disconnect(c, 0);
        if (!lib.bus_register(c, &e)) { lib.close(c); lib.unref(c); c = NULL; }
    }
    if (!c) {
        snprintf(error, size, "%s", e.message ? e.message : "cannot connect");
        lib.error_free(&e);
        return NULL;
    }
    widgethost_bus *bus = malloc(sizeof *bus);
    if (!bus) { lib.close(c); lib.unref(c); snprintf(error, size, "out of memory"); return NULL; }
    bus->connection = c;
    return bus;
}

int widgethost_bus_fd(widgethost_bus *bus) {
    int fd = -1;
    return lib.get_unix_fd(bus->connection, &fd) ? fd : -1;
}

void widgethost_bus_match(widgethost_bus *bus, const char *rule, int add) {
    (add ? lib.add_match : lib.remove_match)(bus->connection, rule, NULL);
    lib.flush(bus->connection);
}

int widgethost_bus_read(widgethost_bus *bus) { return lib.read_write(bus->connection, 0) ? 1 : 0; }

static void copy(char *to, const char *from, size_t size) { snprintf(to, size, "%s", from ? from : ""); }

int widgethost_bus_next_signal(widgethost_bus *bus, char *interface, char *member, char *path, char *arg0, size_t size) {
    void *m;
    while ((m = lib.pop_message(bus->connection))) {
        if (lib.message_type(m) != 4 /* DBUS_MESSAGE_TYPE_SIGNAL */) { lib.message_unref(m); continue; }
        copy(interface, lib.message_interface(m), size);
        copy(member, lib.message_member(m), size);
        copy(path, lib.message_path(m), size);
        wh_iter it;
        const char *first = NULL;
        if (lib.iter_init(m, &it) && lib.iter_arg_type(&it) == 's') lib.iter_basic(&it, &first);
        copy(arg0, first, size);
        lib.message_unref(m);
        return 1;
    }
    return 0;
}

void widgethost_bus_close(widgethost_bus *bus) {
    if (!bus) return;
    lib.close(bus->connection);
    lib.unref(bus->connection);
    free(bus);
}
