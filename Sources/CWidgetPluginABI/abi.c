/* The ABI is header-only; this file exists because SwiftPM requires a source per C target. */
#include "widget_plugin.h"
