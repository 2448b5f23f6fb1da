// Cairo (image, PNG and SVG surfaces) and Pango through PangoCairo, for WidgetGraphics.
// Found by pkg-config `pangocairo` (which requires `cairo`); Debian: libcairo2-dev, libpango1.0-dev.
#include <cairo.h>
#include <cairo-svg.h>
#include <pango/pangocairo.h>
// HarfBuzz's OpenType variations (libharfbuzz-dev, a dependency of libpango1.0-dev): whether a
// face's advances can change with the size other than in proportion (`PangoText`'s twins).
#include <hb-ot.h>
// zlib (zlib1g-dev, a dependency of libcairo2-dev): WidgetGraphics encodes PNGs itself, at a
// faster compression level than Cairo's writer uses.
#include <zlib.h>
