/*
 * Pointer input for WaylandDesktopTests on a headless wlroots compositor (which has no pointer),
 * built by the test with the committed protocol code (Sources/CWayland):
 *
 *   cc -o wayland_pointer wayland_pointer.c .../wlr-virtual-pointer-unstable-v1-protocol.c \
 *      .../wlr-layer-shell-unstable-v1-protocol.c .../xdg-shell-protocol.c \
 *      -I .../Sources/CWayland/include -lwayland-client
 *
 * wayland_pointer click WIDTH HEIGHT
 *   A zwlr_virtual_pointer_v1 on the default seat; WIDTH × HEIGHT is the output layout's size in
 *   logical points. Prints "ready" once the device exists, then per line of stdin: "move X Y"
 *   (absolute, logical points of the layout), "press N" / "release N" (button 1 left, 2 middle,
 *   3 right), "click X Y" (move, press 1, release 1); each answered with "done" once the
 *   compositor has handled it; "extent W H" (the layout's new size, after an output came or
 *   went) is not answered. Ends at the end of stdin (the device goes with it).
 *
 * wayland_pointer beneath
 *   The desktop beneath the surface: a transparent layer surface on the background layer of the
 *   first output, covering it, that prints "beneath press X Y" for each button press that
 *   reaches it (logical points of the output). Prints "ready" once it is shown. Runs until killed.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include <wayland-client.h>
#include "wlr-virtual-pointer-unstable-v1-client-protocol.h"
#include "wlr-layer-shell-unstable-v1-client-protocol.h"

static struct zwlr_virtual_pointer_manager_v1 *manager;
static struct wl_compositor *compositor;
static struct wl_shm *shm;
static struct wl_seat *seat;
static struct zwlr_layer_shell_v1 *layer_shell;

static void global(void *data, struct wl_registry *registry, uint32_t name, const char *interface, uint32_t version) {
    (void)data; (void)version;
    if (strcmp(interface, zwlr_virtual_pointer_manager_v1_interface.name) == 0)
        manager = wl_registry_bind(registry, name, &zwlr_virtual_pointer_manager_v1_interface, 1);
    else if (strcmp(interface, wl_compositor_interface.name) == 0)
        compositor = wl_registry_bind(registry, name, &wl_compositor_interface, 1);
    else if (strcmp(interface, wl_shm_interface.name) == 0)
        shm = wl_registry_bind(registry, name, &wl_shm_interface, 1);
    else if (strcmp(interface, wl_seat_interface.name) == 0 && !seat)
        seat = wl_registry_bind(registry, name, &wl_seat_interface, 1);
    else if (strcmp(interface, zwlr_layer_shell_v1_interface.name) == 0)
        layer_shell = wl_registry_bind(registry, name, &zwlr_layer_shell_v1_interface, 1);
}

static void global_remove(void *data, struct wl_registry *registry, uint32_t name) {
    (void)data; (void)registry; (void)name;
}

static const struct wl_registry_listener registry_listener = { global, global_remove };

static uint32_t now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint32_t)(t.tv_sec * 1000 + t.tv_nsec / 1000000);
}

/* BTN_LEFT, BTN_MIDDLE, BTN_RIGHT (linux/input-event-codes.h) for buttons 1, 2, 3. */
static uint32_t button_code(int n) { return n == 2 ? 0x112 : n == 3 ? 0x111 : 0x110; }

static int click(struct wl_display *display, uint32_t width, uint32_t height) {
    if (!manager) { fprintf(stderr, "wayland_pointer: the compositor has no zwlr_virtual_pointer_manager_v1\n"); return 1; }
    struct zwlr_virtual_pointer_v1 *pointer = zwlr_virtual_pointer_manager_v1_create_virtual_pointer(manager, NULL);
    if (wl_display_roundtrip(display) < 0) { fprintf(stderr, "wayland_pointer: the compositor went away\n"); return 1; }
    printf("ready\n");
    fflush(stdout);
    char line[256];
    while (fgets(line, sizeof line, stdin)) {
        double x, y;
        int n;
        unsigned w, h;
        if (sscanf(line, "extent %u %u", &w, &h) == 2) {   /* the layout's new size; no answer */
            width = w;
            height = h;
            continue;
        }
        if (sscanf(line, "move %lf %lf", &x, &y) == 2 || sscanf(line, "click %lf %lf", &x, &y) == 2) {
            zwlr_virtual_pointer_v1_motion_absolute(pointer, now_ms(), (uint32_t)(x * 256), (uint32_t)(y * 256), width * 256, height * 256);
            zwlr_virtual_pointer_v1_frame(pointer);
            if (strncmp(line, "click", 5) == 0) {
                zwlr_virtual_pointer_v1_button(pointer, now_ms(), button_code(1), WL_POINTER_BUTTON_STATE_PRESSED);
                zwlr_virtual_pointer_v1_frame(pointer);
                zwlr_virtual_pointer_v1_button(pointer, now_ms(), button_code(1), WL_POINTER_BUTTON_STATE_RELEASED);
                zwlr_virtual_pointer_v1_frame(pointer);
            }
        } else if (sscanf(line, "press %d", &n) == 1 || sscanf(line, "release %d", &n) == 1) {
            uint32_t state = line[0] == 'p' ? WL_POINTER_BUTTON_STATE_PRESSED : WL_POINTER_BUTTON_STATE_RELEASED;
            zwlr_virtual_pointer_v1_button(pointer, now_ms(), button_code(n), state);
            zwlr_virtual_pointer_v1_frame(pointer);
        } else {
            fprintf(stderr, "wayland_pointer: not understood: %s", line);
            continue;
        }
        if (wl_display_roundtrip(display) < 0) { fprintf(stderr, "wayland_pointer: the compositor went away\n"); return 1; }
        printf("done\n");
        fflush(stdout);
    }
    zwlr_virtual_pointer_v1_destroy(pointer);
    wl_display_roundtrip(display);
    return 0;
}

/* ---- beneath: a background-layer surface reporting the presses that reach it ---- */

static struct wl_surface *surface;
static double pointer_x, pointer_y;
static int configured_width, configured_height;

static void layer_configure(void *data, struct zwlr_layer_surface_v1 *layer, uint32_t serial, uint32_t width, uint32_t height) {
    (void)data;
    zwlr_layer_surface_v1_ack_configure(layer, serial);
    configured_width = (int)width;
    configured_height = (int)height;
}

static void layer_closed(void *data, struct zwlr_layer_surface_v1 *layer) { (void)data; (void)layer; exit(0); }

static const struct zwlr_layer_surface_v1_listener layer_listener = { layer_configure, layer_closed };

static void pointer_enter(void *data, struct wl_pointer *p, uint32_t serial, struct wl_surface *s, wl_fixed_t x, wl_fixed_t y) {
    (void)data; (void)p; (void)serial; (void)s;
    pointer_x = wl_fixed_to_double(x);
    pointer_y = wl_fixed_to_double(y);
}
static void pointer_leave(void *data, struct wl_pointer *p, uint32_t serial, struct wl_surface *s) {
    (void)data; (void)p; (void)serial; (void)s;
}
static void pointer_motion(void *data, struct wl_pointer *p, uint32_t time, wl_fixed_t x, wl_fixed_t y) {
    (void)data; (void)p; (void)time;
    pointer_x = wl_fixed_to_double(x);
    pointer_y = wl_fixed_to_double(y);
}
static void pointer_button(void *data, struct wl_pointer *p, uint32_t serial, uint32_t time, uint32_t button, uint32_t state) {
    (void)data; (void)p; (void)serial; (void)time; (void)button;
    if (state == WL_POINTER_BUTTON_STATE_PRESSED) {
        printf("beneath press %.0f %.0f\n", pointer_x, pointer_y);
        fflush(stdout);
    }
}
static void pointer_axis(void *data, struct wl_pointer *p, uint32_t time, uint32_t axis, wl_fixed_t value) {
    (void)data; (void)p; (void)time; (void)axis; (void)value;
}

static const struct wl_pointer_listener pointer_listener = { pointer_enter, pointer_leave, pointer_motion, pointer_button, pointer_axis,
                                                             NULL, NULL, NULL, NULL, NULL };

static struct wl_pointer *pointer_device;

static void seat_capabilities(void *data, struct wl_seat *s, uint32_t caps) {
    (void)data;
    if ((caps & WL_SEAT_CAPABILITY_POINTER) && !pointer_device) {
        pointer_device = wl_seat_get_pointer(s);
        wl_pointer_add_listener(pointer_device, &pointer_listener, NULL);
    } else if (!(caps & WL_SEAT_CAPABILITY_POINTER) && pointer_device) {
        wl_pointer_destroy(pointer_device);
        pointer_device = NULL;
    }
}
static void seat_name(void *data, struct wl_seat *s, const char *name) { (void)data; (void)s; (void)name; }

static const struct wl_seat_listener seat_listener = { seat_capabilities, seat_name };

static int beneath(struct wl_display *display) {
    if (!compositor || !shm || !seat || !layer_shell) { fprintf(stderr, "wayland_pointer: the compositor lacks a global\n"); return 1; }
    wl_seat_add_listener(seat, &seat_listener, NULL);
    surface = wl_compositor_create_surface(compositor);
    struct zwlr_layer_surface_v1 *layer = zwlr_layer_shell_v1_get_layer_surface(layer_shell, surface, NULL,
        ZWLR_LAYER_SHELL_V1_LAYER_BACKGROUND, "beneath");
    zwlr_layer_surface_v1_add_listener(layer, &layer_listener, NULL);
    zwlr_layer_surface_v1_set_anchor(layer, ZWLR_LAYER_SURFACE_V1_ANCHOR_TOP | ZWLR_LAYER_SURFACE_V1_ANCHOR_BOTTOM
                                     | ZWLR_LAYER_SURFACE_V1_ANCHOR_LEFT | ZWLR_LAYER_SURFACE_V1_ANCHOR_RIGHT);
    zwlr_layer_surface_v1_set_exclusive_zone(layer, -1);
    wl_surface_commit(surface);
    while (configured_width == 0 && wl_display_dispatch(display) >= 0) {}
    if (configured_width == 0) { fprintf(stderr, "wayland_pointer: not configured\n"); return 1; }
    int stride = configured_width * 4, size = stride * configured_height;
    int fd = memfd_create("beneath", MFD_CLOEXEC);
    if (fd < 0 || ftruncate(fd, size) < 0) { perror("wayland_pointer: memfd"); return 1; }
    struct wl_shm_pool *pool = wl_shm_create_pool(shm, fd, size);   /* zero-filled: transparent */
    struct wl_buffer *buffer = wl_shm_pool_create_buffer(pool, 0, configured_width, configured_height, stride, WL_SHM_FORMAT_ARGB8888);
    wl_surface_attach(surface, buffer, 0, 0);
    wl_surface_damage(surface, 0, 0, configured_width, configured_height);
    wl_surface_commit(surface);
    if (wl_display_roundtrip(display) < 0) return 1;
    printf("ready\n");
    fflush(stdout);
    while (wl_display_dispatch(display) >= 0) {}
    return 0;
}

int main(int argc, char **argv) {
    int is_click = argc == 4 && strcmp(argv[1], "click") == 0, is_beneath = argc == 2 && strcmp(argv[1], "beneath") == 0;
    if (!is_click && !is_beneath) { fprintf(stderr, "usage: wayland_pointer click WIDTH HEIGHT | wayland_pointer beneath\n"); return 2; }
    struct wl_display *display = wl_display_connect(NULL);
    if (!display) { fprintf(stderr, "wayland_pointer: no Wayland compositor\n"); return 1; }
    struct wl_registry *registry = wl_display_get_registry(display);
    wl_registry_add_listener(registry, &registry_listener, NULL);
    wl_display_roundtrip(display);
    int status = is_click ? click(display, (uint32_t)atoi(argv[2]), (uint32_t)atoi(argv[3])) : beneath(display);
    wl_display_disconnect(display);
    return status;
}
