#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/fs.h>
#include "widgethost_files.h"

int widgethost_exchange_names(int dirfd, const char *a, const char *b) {
    return (int)syscall(SYS_renameat2, dirfd, a, dirfd, b, RENAME_EXCHANGE);
}

int widgethost_write_lease(int fd, int take) {
    return fcntl(fd, F_SETLEASE, take ? F_WRLCK : F_UNLCK);
}
