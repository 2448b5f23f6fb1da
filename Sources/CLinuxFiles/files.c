#define _GNU_SOURCE
#include <fcntl.h>
#include <spawn.h>
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

int widgethost_spawn_close_from(posix_spawn_file_actions_t *actions, int from) {
    return posix_spawn_file_actions_addclosefrom_np(actions, from);
}
