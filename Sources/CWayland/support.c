#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <sys/timerfd.h>
#include <unistd.h>
#include "CWayland.h"

int widgethost_wayland_shm_file(size_t size) {
    int fd = memfd_create("widgethost-desktop", MFD_CLOEXEC | MFD_ALLOW_SEALING);
    if (fd < 0) return -1;
    int r;
    do { r = ftruncate(fd, (off_t)size); } while (r < 0 && errno == EINTR);
    if (r < 0) { int saved = errno; close(fd); errno = saved; return -1; }
    /* The compositor maps it too: neither side may shrink it under the other. */
    (void)fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK);
    return fd;
}

/* The globals the surface binds (Swift cannot take the address of a C constant). */
static const struct wl_interface *const bindable[] = {
    &wl_compositor_interface, &wl_shm_interface, &wl_seat_interface, &wl_output_interface,
    &xdg_wm_base_interface, &zxdg_output_manager_v1_interface, &wp_viewporter_interface,
    &wp_fractional_scale_manager_v1_interface, &zwlr_layer_shell_v1_interface,
    &zwlr_virtual_pointer_manager_v1_interface, &wl_data_device_manager_interface,
};

void *widgethost_wayland_bind(struct wl_registry *registry, uint32_t name, const char *interface, uint32_t version) {
    for (size_t i = 0; i < sizeof bindable / sizeof bindable[0]; i++) {
        if (strcmp(bindable[i]->name, interface) == 0)
            return wl_registry_bind(registry, name, bindable[i], version);
    }
    return NULL;
}

int widgethost_wayland_wakeup_create(void) { return epoll_create1(EPOLL_CLOEXEC); }

int widgethost_wayland_wakeup_watch(int set, int fd, int add) {
    struct epoll_event event = { .events = EPOLLIN, .data.fd = fd };
    return epoll_ctl(set, add ? EPOLL_CTL_ADD : EPOLL_CTL_DEL, fd, &event);
}

int widgethost_wayland_pipe(int fds[2]) { return pipe2(fds, O_CLOEXEC | O_NONBLOCK); }

int widgethost_wayland_timer_create(void) { return timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC); }

int widgethost_wayland_timer_arm(int fd, unsigned milliseconds) {
    struct itimerspec spec = { .it_value = { .tv_sec = milliseconds / 1000, .tv_nsec = (long)(milliseconds % 1000) * 1000000L } };
    return timerfd_settime(fd, 0, &spec, NULL);
}
