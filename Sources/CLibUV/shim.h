#ifndef WIDGETHOST_CLIBUV_SHIM_H
#define WIDGETHOST_CLIBUV_SHIM_H
#include <uv.h>
#include <sys/prctl.h>
#include <signal.h>
#include <sys/timerfd.h>

/* prctl is variadic, which Swift cannot call: a fixed-arity wrapper. */
static inline int widgethost_set_parent_death_signal(int sig) {
    return prctl(PR_SET_PDEATHSIG, (unsigned long)sig, 0UL, 0UL, 0UL);
}
#endif
