/* A pointer for a wlroots compositor that has none (headless sway), through a virtual pointer
 * (zwlr_virtual_pointer_manager_v1), and real left clicks with it.
 *
 *   virtual_pointer_click WIDTH HEIGHT
 *
 * creates the pointer device (the seat gains the pointer capability, so clients bind their
 * wl_pointer), prints "ready", then reads lines "X Y" from stdin: for each, moves the pointer to
 * (X, Y) of the WIDTH x HEIGHT layout, presses and releases button 1, moves the pointer to the
 * layout's bottom-right corner (screenshots show the cursor) and prints "clicked" once
 * the compositor has handled every request (a round trip). A line "X0 Y0 X1 Y1" is a drag:
 * button 1 pressed at (X0, Y0), the pointer moved to (X1, Y1) in ten steps 30 ms apart (300 ms
 * after the first, for a toolkit to start its drag), released there (then off to the corner
 * too); then "dragged". With " hold" after the four numbers the button stays down at (X1, Y1)
 * ("holding") until a line "release" ("released"). Exits 0 at the end of stdin; 1 when the
 * compositor offers no virtual pointer or no seat. Built by the tests with
 * `cc … -lwayland-client`.
 *
 * The two interfaces are declared here by hand (requests in the protocol's order, version 1),
 * so the fixture needs no protocol XML or wayland-scanner. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <wayland-client.h>

static const struct wl_interface *no_types[] = { NULL, NULL, NULL, NULL, NULL };

extern const struct wl_interface virtual_pointer_interface;
static const struct wl_interface *create_types[] = { &wl_seat_interface, &virtual_pointer_interface };

static const struct wl_message manager_requests[] = {
    { "create_virtual_pointer", "?on", create_types },
    { "destroy", "", no_types },
};
static const struct wl_interface manager_interface = {
    "zwlr_virtual_pointer_manager_v1", 1, 2, manager_requests, 0, NULL,
};

enum { MOTION, MOTION_ABSOLUTE, BUTTON, AXIS, FRAME, AXIS_SOURCE, AXIS_STOP, AXIS_DISCRETE, DESTROY };
static const struct wl_message pointer_requests[] = {
    { "motion", "uff", no_types },
    { "motion_absolute", "uuuuu", no_types },
    { "button", "uuu", no_types },
    { "axis", "uuf", no_types },
    { "frame", "", no_types },
    { "axis_source", "u", no_types },
    { "axis_stop", "uu", no_types },
    { "axis_discrete", "uufi", no_types },
    { "destroy", "", no_types },
};
const struct wl_interface virtual_pointer_interface = {
    "zwlr_virtual_pointer_v1", 1, 9, pointer_requests, 0, NULL,
};

static struct wl_proxy *manager;
static struct wl_seat *seat;

static void global(void *data, struct wl_registry *registry, uint32_t name, const char *interface, uint32_t version) {
    (void)data; (void)version;
    if (strcmp(interface, manager_interface.name) == 0)
        manager = wl_registry_bind(registry, name, &manager_interface, 1);
    else if (strcmp(interface, "wl_seat") == 0 && !seat)
        seat = wl_registry_bind(registry, name, &wl_seat_interface, 1);
}
static void global_remove(void *data, struct wl_registry *registry, uint32_t name) { (void)data; (void)registry; (void)name; }
static const struct wl_registry_listener registry_listener = { global, global_remove };

static uint32_t now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint32_t)(ts.tv_sec * 1000 + ts.tv_nsec / 1000000);
}

static struct wl_display *display;
static struct wl_proxy *pointer;
static uint32_t w, h;

/* The pointer to (x, y) of the layout, one frame. */
static void move_to(unsigned x, unsigned y) {
    wl_proxy_marshal_flags(pointer, MOTION_ABSOLUTE, NULL, 1, 0, now_ms(), x, y, w, h);
    wl_proxy_marshal_flags(pointer, FRAME, NULL, 1, 0);
}

/* Button 1 pressed (1) or released (0), one frame, then a round trip. */
static void left_button(uint32_t state) {
    wl_proxy_marshal_flags(pointer, BUTTON, NULL, 1, 0, now_ms(), 0x110 /* BTN_LEFT */, state);
    wl_proxy_marshal_flags(pointer, FRAME, NULL, 1, 0);
    wl_display_roundtrip(display);
}

/* Button 1 released where the pointer is, then the pointer off to the layout's bottom-right
 * corner: grim's screenshots show the cursor. */
static void release(void) {
    left_button(0);
    move_to(w - 1, h - 1);
    wl_display_roundtrip(display);
}

int main(int argc, char **argv) {
    if (argc != 3) { fprintf(stderr, "usage: %s WIDTH HEIGHT\n", argv[0]); return 2; }
    w = (uint32_t)atoi(argv[1]); h = (uint32_t)atoi(argv[2]);
    display = wl_display_connect(NULL);
    if (!display) { fprintf(stderr, "virtual_pointer_click: cannot connect to the compositor\n"); return 1; }
    struct wl_registry *registry = wl_display_get_registry(display);
    wl_registry_add_listener(registry, &registry_listener, NULL);
    wl_display_roundtrip(display);
    if (!manager || !seat) {
        fprintf(stderr, "virtual_pointer_click: the compositor offers no %s\n", manager ? "seat" : manager_interface.name);
        return 1;
    }
    pointer = wl_proxy_marshal_flags(manager, 0, &virtual_pointer_interface, 1, 0, seat, NULL);
    wl_display_roundtrip(display);
    printf("ready\n");
    fflush(stdout);
    unsigned x, y, x1, y1;
    char line[128];
    while (fgets(line, sizeof line, stdin)) {
        if (strcmp(line, "release\n") == 0) {
            release();
            printf("released\n");
            fflush(stdout);
            continue;
        }
        char hold[8] = "";
        int n = sscanf(line, "%u %u %u %u %7s", &x, &y, &x1, &y1, hold);
        if (n == 5 && strcmp(hold, "hold") == 0) n = 4;
        else if (n != 2 && n != 4) break;
        else hold[0] = 0;
        move_to(x, y);
        wl_display_roundtrip(display);
        left_button(1);
        if (n == 4) {
            for (int i = 1; i <= 10; i++) {
                /* After the first move a toolkit starts its drag (past its threshold, button
                 * held) and asks the compositor for it: a person's pause lets a loaded
                 * machine do that before the pointer goes on. */
                struct timespec pause = { 0, (i == 2 ? 300 : 30) * 1000000 };
                nanosleep(&pause, NULL);
                move_to((unsigned)((int)x + ((int)x1 - (int)x) * i / 10), (unsigned)((int)y + ((int)y1 - (int)y) * i / 10));
                wl_display_roundtrip(display);
            }
        }
        if (hold[0]) {
            printf("holding\n");
            fflush(stdout);
            continue;
        }
        release();
        printf(n == 4 ? "dragged\n" : "clicked\n");
        fflush(stdout);
    }
    wl_proxy_marshal_flags(pointer, DESTROY, NULL, 1, WL_MARSHAL_FLAG_DESTROY);
    wl_display_roundtrip(display);
    wl_display_disconnect(display);
    return 0;
}
