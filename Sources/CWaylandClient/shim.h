// libwayland-client, for widgethost-desktop's Wayland backend only (the daemon never links it).
// Found by pkg-config `wayland-client`; Debian: libwayland-dev.
#include <wayland-client.h>
