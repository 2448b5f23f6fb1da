#ifndef WIDGETHOST_CLIBUV_SHIM_H
#define WIDGETHOST_CLIBUV_SHIM_H
#include <uv.h>
#include <sys/prctl.h>
#include <signal.h>
#include <sys/timerfd.h>
#include <sys/inotify.h>

/* prctl is variadic, which Swift cannot call: a fixed-arity wrapper. */
static inline int widgethost_set_parent_death_signal(int sig) {
    return prctl(PR_SET_PDEATHSIG, (unsigned long)sig, 0UL, 0UL, 0UL);
}

#include <sys/syscall.h>
#include <unistd.h>

/* pidfd_open(2) (Linux 5.3): a descriptor that becomes readable when the process ends. glibc's
   wrapper is not in every header set and syscall() is variadic, which Swift cannot call. */
static inline int widgethost_pidfd_open(int pid) {
#ifdef SYS_pidfd_open
    return (int)syscall(SYS_pidfd_open, pid, 0);
#else
    return -1;
#endif
}
#endif
