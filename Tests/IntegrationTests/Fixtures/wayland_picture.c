/*
 * A reference client for WaylandDesktopTests: shows pictures exactly as the lean surface shows
 * its area — a layer surface on the bottom layer, anchored top-left at margins X, Y, of W × H
 * logical points, its buffer W·S × H·S pixels (rounded up) at scale S, shown through
 * wl_surface.set_buffer_scale at a whole S and through wp_viewport.set_destination at a
 * fractional one — so that the compositor treats both the same way, resampling included.
 * Each PNG is drawn at its pixel place (PX, PY) of the buffer, the rest transparent.
 *
 *   cc -o wayland_picture wayland_picture.c .../wlr-layer-shell-unstable-v1-protocol.c \
 *      .../xdg-shell-protocol.c .../viewporter-protocol.c -I .../Sources/CWayland/include \
 *      $(pkg-config --cflags --libs cairo) -lwayland-client
 *
 * wayland_picture X Y W H S [PNG PX PY]...
 *   Prints "shown" once the compositor has shown the picture (the frame callback of its first
 *   commit came), then runs until killed.
 */
#define _GNU_SOURCE
#include <cairo.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <wayland-client.h>
#include "viewporter-client-protocol.h"
#include "wlr-layer-shell-unstable-v1-client-protocol.h"

static struct wl_compositor *compositor;
static struct wl_shm *shm;
static struct zwlr_layer_shell_v1 *layer_shell;
static struct wp_viewporter *viewporter;
static int configured, shown;

static void global(void *data, struct wl_registry *registry, uint32_t name, const char *interface, uint32_t version) {
    (void)data;
    if (strcmp(interface, wl_compositor_interface.name) == 0)
        compositor = wl_registry_bind(registry, name, &wl_compositor_interface, version < 4 ? version : 4);
    else if (strcmp(interface, wl_shm_interface.name) == 0)
        shm = wl_registry_bind(registry, name, &wl_shm_interface, 1);
    else if (strcmp(interface, zwlr_layer_shell_v1_interface.name) == 0)
        layer_shell = wl_registry_bind(registry, name, &zwlr_layer_shell_v1_interface, 1);
    else if (strcmp(interface, wp_viewporter_interface.name) == 0)
        viewporter = wl_registry_bind(registry, name, &wp_viewporter_interface, 1);
}
static void global_remove(void *data, struct wl_registry *registry, uint32_t name) { (void)data; (void)registry; (void)name; }
static const struct wl_registry_listener registry_listener = { global, global_remove };

static void layer_configure(void *data, struct zwlr_layer_surface_v1 *layer, uint32_t serial, uint32_t width, uint32_t height) {
    (void)data; (void)width; (void)height;
    zwlr_layer_surface_v1_ack_configure(layer, serial);
    configured = 1;
}
static void layer_closed(void *data, struct zwlr_layer_surface_v1 *layer) { (void)data; (void)layer; exit(0); }
static const struct zwlr_layer_surface_v1_listener layer_listener = { layer_configure, layer_closed };

static void frame_done(void *data, struct wl_callback *callback, uint32_t time) { (void)data; (void)time; wl_callback_destroy(callback); shown = 1; }
static const struct wl_callback_listener frame_listener = { frame_done };

int main(int argc, char **argv) {
    if (argc < 6 || (argc - 6) % 3 != 0) { fprintf(stderr, "usage: wayland_picture X Y W H S [PNG PX PY]...\n"); return 2; }
    int x = atoi(argv[1]), y = atoi(argv[2]), w = atoi(argv[3]), h = atoi(argv[4]);
    double s = atof(argv[5]);
    /* As the surface rounds: up, a hair under a whole number staying it. */
    int pw = (int)ceil(w * s - 1e-6), ph = (int)ceil(h * s - 1e-6);
    struct wl_display *display = wl_display_connect(NULL);
    if (!display) { fprintf(stderr, "wayland_picture: no Wayland compositor\n"); return 1; }
    struct wl_registry *registry = wl_display_get_registry(display);
    wl_registry_add_listener(registry, &registry_listener, NULL);
    wl_display_roundtrip(display);
    int whole = s == floor(s);
    if (!compositor || !shm || !layer_shell || (!whole && !viewporter)) { fprintf(stderr, "wayland_picture: the compositor lacks a global\n"); return 1; }

    struct wl_surface *surface = wl_compositor_create_surface(compositor);
    struct zwlr_layer_surface_v1 *layer = zwlr_layer_shell_v1_get_layer_surface(layer_shell, surface, NULL,
        ZWLR_LAYER_SHELL_V1_LAYER_BOTTOM, "wayland_picture");
    zwlr_layer_surface_v1_add_listener(layer, &layer_listener, NULL);
    zwlr_layer_surface_v1_set_anchor(layer, ZWLR_LAYER_SURFACE_V1_ANCHOR_TOP | ZWLR_LAYER_SURFACE_V1_ANCHOR_LEFT);
    zwlr_layer_surface_v1_set_margin(layer, y, 0, 0, x);
    zwlr_layer_surface_v1_set_size(layer, w, h);
    zwlr_layer_surface_v1_set_exclusive_zone(layer, -1);
    wl_surface_commit(surface);
    while (!configured && wl_display_dispatch(display) >= 0) {}
    if (!configured) { fprintf(stderr, "wayland_picture: not configured\n"); return 1; }

    int stride = pw * 4, size = stride * ph;
    int fd = memfd_create("wayland_picture", MFD_CLOEXEC);
    if (fd < 0 || ftruncate(fd, size) < 0) { perror("wayland_picture: memfd"); return 1; }
    unsigned char *pixels = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (pixels == MAP_FAILED) { perror("wayland_picture: mmap"); return 1; }
    cairo_surface_t *target = cairo_image_surface_create_for_data(pixels, CAIRO_FORMAT_ARGB32, pw, ph, stride);
    cairo_t *cr = cairo_create(target);
    cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE);
    for (int i = 6; i + 2 < argc; i += 3) {
        cairo_surface_t *png = cairo_image_surface_create_from_png(argv[i]);
        if (cairo_surface_status(png) != CAIRO_STATUS_SUCCESS) { fprintf(stderr, "wayland_picture: cannot read %s\n", argv[i]); return 1; }
        cairo_set_source_surface(cr, png, atoi(argv[i + 1]), atoi(argv[i + 2]));
        cairo_rectangle(cr, atoi(argv[i + 1]), atoi(argv[i + 2]), cairo_image_surface_get_width(png), cairo_image_surface_get_height(png));
        cairo_fill(cr);
        cairo_surface_destroy(png);
    }
    cairo_surface_flush(target);

    struct wl_shm_pool *pool = wl_shm_create_pool(shm, fd, size);
    struct wl_buffer *buffer = wl_shm_pool_create_buffer(pool, 0, pw, ph, stride, WL_SHM_FORMAT_ARGB8888);
    if (whole) {
        wl_surface_set_buffer_scale(surface, (int)s);
    } else {
        struct wp_viewport *viewport = wp_viewporter_get_viewport(viewporter, surface);
        wp_viewport_set_destination(viewport, w, h);
    }
    wl_surface_attach(surface, buffer, 0, 0);
    wl_surface_damage(surface, 0, 0, w, h);
    wl_callback_add_listener(wl_surface_frame(surface), &frame_listener, NULL);
    wl_surface_commit(surface);
    while (!shown && wl_display_dispatch(display) >= 0) {}
    printf("shown %dx%d\n", pw, ph);
    fflush(stdout);
    while (wl_display_dispatch(display) >= 0) {}
    return 0;
}
