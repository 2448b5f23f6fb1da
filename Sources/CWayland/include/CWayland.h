// The Wayland protocols widgethost-desktop speaks beyond the core one, as wayland-scanner
// generates them (scripts/generate-wayland-protocols.sh; the XML: Protocols/README.md), the
// shared-memory file its buffers live in, and a bind by interface name.
#ifndef WIDGETHOST_CWAYLAND_H
#define WIDGETHOST_CWAYLAND_H
#include <stddef.h>
#include <wayland-client.h>
#include "xdg-shell-client-protocol.h"
#include "viewporter-client-protocol.h"
#include "xdg-output-unstable-v1-client-protocol.h"
#include "fractional-scale-v1-client-protocol.h"
#include "wlr-layer-shell-unstable-v1-client-protocol.h"
#include "wlr-virtual-pointer-unstable-v1-client-protocol.h"

/// An anonymous file of `size` bytes for a wl_shm pool (memfd, close-on-exec); -1 with errno set
/// when it cannot be made.
int widgethost_wayland_shm_file(size_t size);

/// `wl_registry.bind` of the global `name` announced as `interface` (one of the interfaces above
/// or wl_compositor, wl_shm, wl_seat, wl_output, wl_data_device_manager) at `version`; NULL for
/// another interface.
void *widgethost_wayland_bind(struct wl_registry *registry, uint32_t name, const char *interface, uint32_t version);

/// An epoll set (close-on-exec) for the surface's loop to poll: readable when a descriptor in
/// it is; -1 with errno set on failure.
int widgethost_wayland_wakeup_create(void);
/// Adds `fd` to the set for reading (`add` non-zero) or removes it; 0, or -1 with errno set.
int widgethost_wayland_wakeup_watch(int set, int fd, int add);
/// A pipe, both ends close-on-exec and non-blocking (a drag's data is read through it).
int widgethost_wayland_pipe(int fds[2]);
/// A monotonic timerfd, non-blocking and close-on-exec; -1 with errno set on failure.
int widgethost_wayland_timer_create(void);
/// Arms the timerfd `fd` to fire once in `milliseconds`; 0, or -1 with errno set.
int widgethost_wayland_timer_arm(int fd, unsigned milliseconds);

#endif
