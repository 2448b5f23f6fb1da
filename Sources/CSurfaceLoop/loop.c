#define _GNU_SOURCE
#include "widgethost_surface_loop.h"
#include <math.h>

int widgethost_timerfd(int realtime) {
    return timerfd_create(realtime ? CLOCK_REALTIME : CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
}

int widgethost_timerfd_arm(int fd, double seconds, int absolute) {
    struct itimerspec spec = {0};
    if (seconds > 0 && isfinite(seconds) && seconds < 1e12) {
        double whole = floor(seconds);
        spec.it_value.tv_sec = (time_t)whole;
        spec.it_value.tv_nsec = (long)((seconds - whole) * 1e9);
        if (spec.it_value.tv_sec == 0 && spec.it_value.tv_nsec == 0) spec.it_value.tv_nsec = 1;
    }
    return timerfd_settime(fd, absolute ? TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET : 0, &spec, NULL);
}

int widgethost_termination_signalfd(void) {
    sigset_t mask;
    sigemptyset(&mask);
    sigaddset(&mask, SIGTERM);
    sigaddset(&mask, SIGINT);
    pthread_sigmask(SIG_BLOCK, &mask, NULL);
    return signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);
}

short widgethost_spawn_setsid_flag(void) {
#ifdef POSIX_SPAWN_SETSID
    return POSIX_SPAWN_SETSID;
#else
    return 0;
#endif
}
