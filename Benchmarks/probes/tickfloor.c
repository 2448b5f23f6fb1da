// The floor of a clock tick (issue 16): a 1-s absolute CLOCK_REALTIME timerfd under epoll, the
// time formatted, and one file update per tick in DIR, by MODE:
//   c  temp file + rename (a new inode per write)
//   x  two inodes swapped with renameat2(RENAME_EXCHANGE), the hidden one rewritten in place
//   l  x with a write lease taken around the rewrite (what OutputDirectory does)
//   n  no file: the line to stdout
// usage: tickfloor DIR MODE; measure with /proc/<pid>/schedstat over a minute.
#define _GNU_SOURCE
#include <sys/timerfd.h>
#include <sys/epoll.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <linux/fs.h>
int main(int argc, char **argv) {
  if (argc < 3) { fprintf(stderr, "usage: tickfloor DIR c|x|l|n\n"); return 2; }
  char mode = argv[2][0];
  int dfd = open(argv[1], O_DIRECTORY | O_RDONLY);
  int tfd = timerfd_create(CLOCK_REALTIME, TFD_NONBLOCK | TFD_CLOEXEC);
  int ep = epoll_create1(0);
  struct epoll_event ev = { .events = EPOLLIN };
  epoll_ctl(ep, EPOLL_CTL_ADD, tfd, &ev);
  int fds[2]; int hidden = 1;
  fds[0] = openat(dfd, "clock.txt", O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  fds[1] = openat(dfd, ".clock.txt.spare", O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  for (;;) {
    struct timespec now; clock_gettime(CLOCK_REALTIME, &now);
    struct itimerspec sp = { .it_value = { now.tv_sec + 1, 0 } };
    timerfd_settime(tfd, TFD_TIMER_ABSTIME, &sp, NULL);
    struct epoll_event out; epoll_wait(ep, &out, 1, -1);
    unsigned long long x; read(tfd, &x, 8);
    time_t t = time(NULL); struct tm tm; localtime_r(&t, &tm);
    char buf[64]; size_t n = strftime(buf, sizeof buf, "clock %H:%M:%S\n", &tm);
    if (mode == 'n') { write(1, buf, n); continue; }
    if (mode == 'c') {
      int fd = openat(dfd, ".clock.txt.tmp", O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
      write(fd, buf, n); close(fd);
      renameat(dfd, ".clock.txt.tmp", dfd, "clock.txt");
    } else {
      int fd = fds[hidden];
      if (mode == 'l' && fcntl(fd, F_SETLEASE, F_WRLCK) != 0) { perror("lease"); }
      pwrite(fd, buf, n, 0); ftruncate(fd, n);
      if (mode == 'l') fcntl(fd, F_SETLEASE, F_UNLCK);
      syscall(SYS_renameat2, dfd, ".clock.txt.spare", dfd, "clock.txt", RENAME_EXCHANGE);
      hidden ^= 1;
    }
  }
}
