// Cairo (image, PNG and SVG surfaces) and Pango through PangoCairo, for WidgetGraphics.
// Found by pkg-config `pangocairo` (which requires `cairo`); Debian: libcairo2-dev, libpango1.0-dev.
#include <cairo.h>
#include <cairo-svg.h>
#include <pango/pangocairo.h>
