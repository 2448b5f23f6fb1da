#ifndef WIDGETHOST_SURFACE_LOOP_H
#define WIDGETHOST_SURFACE_LOOP_H
/* The system calls of the lean desktop surface's loop that Swift's Glibc module does not
   import: timerfd (live-date ticks, reconnect delay), signalfd (SIGTERM/SIGINT in the poll) and
   posix_spawn's POSIX_SPAWN_SETSID (the editor in a session of its own). No policy. */
#include <signal.h>
#include <spawn.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <time.h>

/* A timerfd on `realtime` (CLOCK_REALTIME) or CLOCK_MONOTONIC, close-on-exec, non-blocking. */
int widgethost_timerfd(int realtime);
/* Arms `fd` to expire once at `seconds` (absolute wall-clock seconds since 1970 when `absolute`,
   cancelled when the clock is set; else from now); 0 disarms. Returns timerfd_settime's result. */
int widgethost_timerfd_arm(int fd, double seconds, int absolute);
/* A signalfd for SIGTERM and SIGINT, which it blocks in the calling thread. */
int widgethost_termination_signalfd(void);
/* POSIX_SPAWN_SETSID, or 0 where the C library has none. */
short widgethost_spawn_setsid_flag(void);
#endif
