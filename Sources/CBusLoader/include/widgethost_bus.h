/*
 * The daemon's session-bus connection for the signals bundles reload on (BusSignalWatch,
 * docs/limits.md "D-Bus"), with libdbus-1 loaded by dlopen on first use: a daemon whose bundles
 * declare no bus signal never maps libdbus and what it pulls in (libsystemd, libgcrypt…), so
 * its start and memory stay as measured (docs/performance.md). One thread.
 */
#ifndef WIDGETHOST_BUS_H
#define WIDGETHOST_BUS_H

#include <stddef.h>

typedef struct widgethost_bus widgethost_bus;

/* Connects privately to `address` and registers (Hello); NULL with the reason in `error`. */
widgethost_bus *widgethost_bus_open(const char *address, char *error, size_t error_size);
/* The connection's descriptor, to poll for reading. */
int widgethost_bus_fd(widgethost_bus *bus);
/* Adds or removes a match rule (sent without waiting for the answer). */
void widgethost_bus_match(widgethost_bus *bus, const char *rule, int add);
/* Reads what has arrived; 0 when the bus closed the connection. */
int widgethost_bus_read(widgethost_bus *bus);
/* The next signal received: its interface, member, path and first argument when that is a
   string ("" otherwise), each cut to its buffer. 1: one was returned; 0: none left. */
int widgethost_bus_next_signal(widgethost_bus *bus, char *interface, char *member, char *path, char *arg0, size_t size);
void widgethost_bus_close(widgethost_bus *bus);

#endif
