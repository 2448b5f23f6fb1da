#ifndef WIDGETHOST_CLIBUV_SHIM_H
#define WIDGETHOST_CLIBUV_SHIM_H
#include <uv.h>
#endif
