/*
 * shifted_clock.so: an LD_PRELOAD shim that moves the wall clock of a process tree by a fixed
 * offset, so tests can run unmodified plugins (which call Date()) at a chosen instant, and the
 * whole suite can be run on another day without touching the machine's clock.
 *
 *   SHIFTED_CLOCK_OFFSET=<seconds, may be negative or fractional>   the clock runs, moved
 *   SHIFTED_CLOCK_AT=<seconds since 1970>                            the clock stands still
 *
 * Every process that inherits the variables sees CLOCK_REALTIME (and gettimeofday, time) moved
 * by the same offset, so a host and its workers agree on "now"; with SHIFTED_CLOCK_AT it reads
 * that instant every time (for one-shot commands such as `preview --png`, whose pictures show
 * seconds; a daemon's wall-clock timers would never fire). Monotonic clocks are untouched, so
 * timeouts and libuv timers keep real time. Absolute CLOCK_REALTIME timerfds (the host's
 * wall-clock timer) are moved back by the offset when armed, so they fire at the shifted instant.
 *
 * Debian's libfaketime does this through its `faketime` wrapper; preloaded directly (as a test
 * harness would) it leaves the Swift runtime an empty CommandLine.arguments (libfaketime 0.9.10),
 * and it is one more package. Built by the tests with cc; not part of any product.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <sys/time.h>
#include <sys/timerfd.h>
#include <time.h>

static long long offset_ns(void) {
    static int ready;
    static long long value;
    if (!ready) {
        const char *s = getenv("SHIFTED_CLOCK_OFFSET");
        value = s ? (long long)(strtod(s, NULL) * 1e9) : 0;
        ready = 1;
    }
    return value;
}

/* The frozen instant in ns, or -1 when the clock runs. */
static long long frozen_ns(void) {
    static int ready;
    static long long value = -1;
    if (!ready) {
        const char *s = getenv("SHIFTED_CLOCK_AT");
        if (s && *s) value = (long long)(strtod(s, NULL) * 1e9);
        ready = 1;
    }
    return value;
}

static int is_realtime(clockid_t id) {
    return id == CLOCK_REALTIME || id == CLOCK_REALTIME_COARSE || id == CLOCK_TAI;
}

static void add_ns(struct timespec *ts, long long ns) {
    long long total = (long long)ts->tv_sec * 1000000000LL + ts->tv_nsec + ns;
    ts->tv_sec = total / 1000000000LL;
    ts->tv_nsec = total % 1000000000LL;
    if (ts->tv_nsec < 0) { ts->tv_nsec += 1000000000LL; ts->tv_sec -= 1; }
}

int clock_gettime(clockid_t id, struct timespec *ts) {
    static int (*real)(clockid_t, struct timespec *);
    if (!real) real = (int (*)(clockid_t, struct timespec *))dlsym(RTLD_NEXT, "clock_gettime");
    int r = real(id, ts);
    if (r == 0 && is_realtime(id)) {
        long long at = frozen_ns();
        if (at >= 0) { ts->tv_sec = at / 1000000000LL; ts->tv_nsec = at % 1000000000LL; }
        else add_ns(ts, offset_ns());
    }
    return r;
}

int gettimeofday(struct timeval *tv, void *tz) {
    struct timespec ts;
    if (tv) {
        clock_gettime(CLOCK_REALTIME, &ts);
        tv->tv_sec = ts.tv_sec;
        tv->tv_usec = ts.tv_nsec / 1000;
    }
    (void)tz;
    return 0;
}

time_t time(time_t *out) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    if (out) *out = ts.tv_sec;
    return ts.tv_sec;
}

/* The clocks of timerfds, by descriptor, so absolute realtime timers can be moved. */
static unsigned char realtime_timerfd[65536];

int timerfd_create(int clockid, int flags) {
    static int (*real)(int, int);
    if (!real) real = (int (*)(int, int))dlsym(RTLD_NEXT, "timerfd_create");
    int fd = real(clockid, flags);
    if (fd >= 0 && fd < (int)sizeof realtime_timerfd) realtime_timerfd[fd] = is_realtime(clockid);
    return fd;
}

int timerfd_settime(int fd, int flags, const struct itimerspec *value, struct itimerspec *old) {
    static int (*real)(int, int, const struct itimerspec *, struct itimerspec *);
    if (!real) real = (int (*)(int, int, const struct itimerspec *, struct itimerspec *))dlsym(RTLD_NEXT, "timerfd_settime");
    if ((flags & TFD_TIMER_ABSTIME) && fd >= 0 && fd < (int)sizeof realtime_timerfd && realtime_timerfd[fd]
        && (value->it_value.tv_sec || value->it_value.tv_nsec)) {
        struct itimerspec moved = *value;
        add_ns(&moved.it_value, -offset_ns());
        return real(fd, flags, &moved, old);
    }
    return real(fd, flags, value, old);
}
