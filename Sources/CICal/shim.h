#ifndef WIDGETHOST_CICAL_SHIM_H
#define WIDGETHOST_CICAL_SHIM_H
/* libical 3 (pkg-config libical, apt libical-dev), for the calendar bundle
   (Examples/CalendarWidget) only: the host and the worker never link it. */
#include <libical/ical.h>
#endif
