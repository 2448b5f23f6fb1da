#define _GNU_SOURCE
#include "widgethost_sandbox.h"

#include <errno.h>
#include <signal.h>
#include <fcntl.h>
#include <stdint.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef SYS_close_range
#define SYS_close_range 436
#endif
#ifndef SYS_landlock_create_ruleset
#define SYS_landlock_create_ruleset 444
#define SYS_landlock_add_rule 445
#define SYS_landlock_restrict_self 446
#endif

#define LL_CREATE_RULESET_VERSION (1U << 0)
#define LL_RULE_PATH_BENEATH 1

#define LL_FS_EXECUTE (1ULL << 0)
#define LL_FS_WRITE_FILE (1ULL << 1)
#define LL_FS_READ_FILE (1ULL << 2)
#define LL_FS_READ_DIR (1ULL << 3)
#define LL_FS_ABI1 ((1ULL << 13) - 1)
#define LL_FS_REFER (1ULL << 13)
#define LL_FS_TRUNCATE (1ULL << 14)
#define LL_FS_IOCTL_DEV (1ULL << 15)
#define LL_NET_BIND_TCP (1ULL << 0)
#define LL_NET_CONNECT_TCP (1ULL << 1)
#define LL_SCOPE_ABSTRACT_UNIX_SOCKET (1ULL << 0)
#define LL_SCOPE_SIGNAL (1ULL << 1)

struct ll_ruleset_attr {
    uint64_t handled_access_fs;
    uint64_t handled_access_net;
    uint64_t scoped;
};

struct ll_path_beneath_attr {
    uint64_t allowed_access;
    int32_t parent_fd;
} __attribute__((packed));

int widgethost_landlock_abi(void) {
    long abi = syscall(SYS_landlock_create_ruleset, NULL, 0, LL_CREATE_RULESET_VERSION);
    return abi < 0 ? -errno : (int)abi;
}

static int add_path(int ruleset, const char *path, uint64_t dir_access, uint64_t file_access) {
    int fd = open(path, O_PATH | O_CLOEXEC);
    if (fd < 0) return 0; /* absent: nothing to allow */
    struct stat st;
    int rc = fstat(fd, &st);
    if (rc == 0) {
        struct ll_path_beneath_attr rule = {
            .allowed_access = S_ISDIR(st.st_mode) ? dir_access : file_access,
            .parent_fd = fd,
        };
        rc = (int)syscall(SYS_landlock_add_rule, ruleset, LL_RULE_PATH_BENEATH, &rule, 0);
    }
    int err = errno;
    close(fd);
    return rc == 0 ? 0 : -err;
}

int widgethost_landlock_apply(const char *const *read_only, size_t read_only_count,
                              const char *const *read_write, size_t read_write_count,
                              int allow_network) {
    int abi = widgethost_landlock_abi();
    if (abi < 1) return abi < 0 ? abi : -ENOSYS;
    uint64_t fs = LL_FS_ABI1;
    if (abi >= 2) fs |= LL_FS_REFER;
    if (abi >= 3) fs |= LL_FS_TRUNCATE;
    if (abi >= 5) fs |= LL_FS_IOCTL_DEV;
    struct ll_ruleset_attr attr = {.handled_access_fs = fs};
    size_t size = sizeof(uint64_t);
    if (abi >= 4) {
        attr.handled_access_net = allow_network ? 0 : (LL_NET_BIND_TCP | LL_NET_CONNECT_TCP);
        size = 2 * sizeof(uint64_t);
    }
    if (abi >= 6) {
        attr.scoped = LL_SCOPE_ABSTRACT_UNIX_SOCKET | LL_SCOPE_SIGNAL;
        size = sizeof attr;
    }
    int ruleset = (int)syscall(SYS_landlock_create_ruleset, &attr, size, 0);
    if (ruleset < 0) return -errno;
    const uint64_t file_rw = LL_FS_READ_FILE | LL_FS_WRITE_FILE | LL_FS_EXECUTE | (fs & (LL_FS_TRUNCATE | LL_FS_IOCTL_DEV));
    int rc = 0;
    for (size_t i = 0; i < read_only_count && rc == 0; i++)
        rc = add_path(ruleset, read_only[i], LL_FS_READ_FILE | LL_FS_READ_DIR | LL_FS_EXECUTE, LL_FS_READ_FILE | LL_FS_EXECUTE);
    for (size_t i = 0; i < read_write_count && rc == 0; i++)
        rc = add_path(ruleset, read_write[i], fs, file_rw);
    if (rc == 0 && prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) rc = -errno;
    if (rc == 0 && syscall(SYS_landlock_restrict_self, ruleset, 0) != 0) rc = -errno;
    close(ruleset);
    return rc;
}

static void guardian_parent_died(int sig) {
    (void)sig;
    kill(0, SIGKILL); /* the whole group, this guardian included */
    _exit(0);
}

int widgethost_start_group_guardian(void) {
    pid_t parent = getpid();
    pid_t child = fork();
    if (child < 0) return -errno;
    if (child > 0) return child;
    /* The guardian: only async-signal-safe calls from here on. */
    signal(SIGTERM, guardian_parent_died);
    prctl(PR_SET_PDEATHSIG, SIGTERM, 0, 0, 0);
    if (getppid() != parent) guardian_parent_died(SIGTERM);
    /* Hold none of the worker's pipes (the host must see them end with the worker). */
    if (syscall(SYS_close_range, 0U, ~0U, 0U) != 0)
        for (int fd = 0; fd < 4096; fd++) close(fd);
    for (;;) pause();
}

int widgethost_exit_with_parent(int sig) {
    return prctl(PR_SET_PDEATHSIG, (unsigned long)sig, 0UL, 0UL, 0UL) == 0 ? 0 : -errno;
}

int widgethost_set_process_name(const char *name) {
    return prctl(PR_SET_NAME, (unsigned long)name, 0UL, 0UL, 0UL) == 0 ? 0 : -errno;
}
