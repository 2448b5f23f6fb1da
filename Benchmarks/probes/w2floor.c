// The floor of W2 with its harness: one process, inotify on the container directory; on an
// IN_MOVED_TO/IN_CLOSE_WRITE of file0.txt it reads the file and writes out/<id>.txt by temp + rename.
// With --worker it asks a child process over a pipe pair (the child reads the file), as the
// host asks its worker: the two process hops of WidgetHost, without Swift.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <fcntl.h>
#include <poll.h>
#include <sys/inotify.h>
int main(int argc, char **argv) {
    if (argc < 3) { fprintf(stderr, "usage: w2floor DIR OUTFILE [--worker]\n"); return 2; }
    const char *dir = argv[1], *outp = argv[2];
    int worker = argc > 3;
    char src[4096]; snprintf(src, sizeof src, "%s/file0.txt", dir);
    char tmp[4096]; snprintf(tmp, sizeof tmp, "%s.tmp", outp);
    int req[2], ans[2]; pipe(req); pipe(ans);
    if (worker && fork() == 0) {
        char c, buf[256];
        while (read(req[0], &c, 1) == 1) {
            int fd = open(src, O_RDONLY); ssize_t n = fd >= 0 ? read(fd, buf, sizeof buf) : 0; if (fd >= 0) close(fd);
            if (n < 0) n = 0;
            write(ans[1], buf, n);
        }
        _exit(0);
    }
    int in = inotify_init1(IN_NONBLOCK);
    inotify_add_watch(in, dir, IN_MOVED_TO | IN_CLOSE_WRITE | IN_CREATE | IN_MODIFY | IN_DELETE | IN_MOVED_FROM | IN_ATTRIB);
    char ev[4096] __attribute__((aligned(8)));
    for (;;) {
        struct pollfd p = { in, POLLIN, 0 };
        poll(&p, 1, -1);
        ssize_t n = read(in, ev, sizeof ev);
        int hit = 0;
        for (char *q = ev; q < ev + n; ) {
            struct inotify_event *e = (struct inotify_event *)q;
            if (e->len && strcmp(e->name, "file0.txt") == 0) hit = 1;
            q += sizeof *e + e->len;
        }
        if (!hit) continue;
        char buf[256]; ssize_t m;
        if (worker) { write(req[1], "x", 1); m = read(ans[0], buf, sizeof buf); }
        else { int fd = open(src, O_RDONLY); m = read(fd, buf, sizeof buf); close(fd); }
        int o = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644); write(o, buf, m > 0 ? m : 0); close(o);
        rename(tmp, outp);
    }
}
