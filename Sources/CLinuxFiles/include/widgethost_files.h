#ifndef WIDGETHOST_FILES_H
#define WIDGETHOST_FILES_H

/// File-system calls Swift's Glibc module does not import (they need _GNU_SOURCE or are
/// reached only through syscall(2)). Each returns 0 on success, -1 with errno set.

/// Swaps the names `a` and `b` in directory `dirfd` atomically (renameat2 RENAME_EXCHANGE):
/// both must exist. ENOSYS or EINVAL where the kernel or file system cannot.
int widgethost_exchange_names(int dirfd, const char *a, const char *b);

/// Takes a write lease on `fd` (granted only while no other open file description refers to
/// the file: EAGAIN otherwise), or releases it when `take` is 0. See fcntl(2) F_SETLEASE.
int widgethost_write_lease(int fd, int take);

#include <spawn.h>

/// Adds to `actions` the closing of every descriptor from `from` on in the child
/// (`posix_spawn_file_actions_addclosefrom_np`, glibc 2.34, declared only with _GNU_SOURCE): a
/// process started with only the descriptors it is given.
int widgethost_spawn_close_from(posix_spawn_file_actions_t *actions, int from);

/// malloc.h, which Swift's Glibc module does not include: `mallopt` (M_ARENA_MAX) and
/// `malloc_trim` for `ProcessMemory`.
#include <malloc.h>

#endif
