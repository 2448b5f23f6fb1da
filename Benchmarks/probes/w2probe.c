// W2 measured without polling: write CONTAINER/file0.txt by temp + rename, then block on
// inotify of OUTDIR until OUTNAME is renamed into place; the time between is one latency.
// usage: w2probe CONTAINER OUTDIR OUTNAME N [gap_ms]
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <fcntl.h>
#include <time.h>
#include <poll.h>
#include <sys/inotify.h>
static double now_us(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec * 1e6 + t.tv_nsec / 1e3; }
static int cmp(const void *a, const void *b) { double x = *(double*)a, y = *(double*)b; return x < y ? -1 : x > y; }
int main(int argc, char **argv) {
    const char *dir = argv[1], *outdir = argv[2], *outname = argv[3];
    int n = atoi(argv[4]), gap = argc > 5 ? atoi(argv[5]) : 200;
    char src[4096], tmp[4096]; snprintf(src, sizeof src, "%s/file0.txt", dir); snprintf(tmp, sizeof tmp, "%s/file0.txt.tmp", dir);
    int in = inotify_init1(0);
    inotify_add_watch(in, outdir, IN_MOVED_TO);
    double *lat = malloc(sizeof(double) * n), *after = malloc(sizeof(double) * n), *wr = malloc(sizeof(double) * n); int got = 0;
    char ev[4096] __attribute__((aligned(8)));
    for (int i = 0; i < n; i++) {
        usleep(gap * 1000);
        char body[64]; int len = snprintf(body, sizeof body, "probe %d\n", i);
        double t0 = now_us();
        int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644); write(fd, body, len); close(fd); rename(tmp, src); double tr = now_us();
        for (;;) {
            struct pollfd p = { in, POLLIN, 0 };
            if (poll(&p, 1, 5000) <= 0) { fprintf(stderr, "timeout at %d\n", i); goto next; }
            ssize_t r = read(in, ev, sizeof ev); int hit = 0;
            for (char *q = ev; q < ev + r; ) { struct inotify_event *e = (struct inotify_event *)q; if (e->len && !strcmp(e->name, outname)) hit = 1; q += sizeof *e + e->len; }
            if (hit) break;
        }
        { double t1 = now_us(); after[got] = t1 - tr; wr[got] = tr - t0; lat[got++] = t1 - t0; }
        next:;
    }
    qsort(lat, got, sizeof(double), cmp); qsort(after, got, sizeof(double), cmp); qsort(wr, got, sizeof(double), cmp);
    printf("after the rename returned: p10 %.0f  p50 %.0f  p90 %.0f us; the write+rename itself p50 %.0f us; total ", after[got/10], after[got/2], after[got*9/10], wr[got/2]);
    printf("n %d  p10 %.0f  p50 %.0f  p90 %.0f  p99 %.0f  max %.0f us\n", got, lat[got/10], lat[got/2], lat[got*9/10], lat[(got-1)*99/100], lat[got-1]);
    return 0;
}
