#define _GNU_SOURCE
#include "widgethost_sandbox.h"

#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <sys/socket.h>
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

/* ---- seccomp ---------------------------------------------------------------------------- */

#if defined(__x86_64__)
#define WH_AUDIT_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define WH_AUDIT_ARCH AUDIT_ARCH_AARCH64
#endif
#ifndef __NR_fchmodat2
#define __NR_fchmodat2 452
#endif
#ifndef __NR_clone3
#define __NR_clone3 435
#endif

#define WH_ERRNO(e) (SECCOMP_RET_ERRNO | ((e) & SECCOMP_RET_DATA))
#define WH_LOAD(field) BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, field))
/* if the loaded word == k, return `ret`; else go on */
#define WH_RETURN_IF(k, ret) BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (k), 0, 1), BPF_STMT(BPF_RET | BPF_K, (ret))
#define WH_DENY(nr) WH_RETURN_IF((nr), WH_ERRNO(EPERM))

int widgethost_seccomp_apply(int allow) {
#ifndef WH_AUDIT_ARCH
    (void)allow;
    return -ENOSYS;
#else
    const uint32_t socket_rule = (allow & WIDGETHOST_ALLOW_NETWORK) ? SECCOMP_RET_ALLOW : WH_ERRNO(EACCES);
    const uint32_t unix_rule = (allow & WIDGETHOST_ALLOW_UNIX) ? SECCOMP_RET_ALLOW : WH_ERRNO(EACCES);
    struct sock_filter filter[] = {
        /* Another architecture's calls (i386 through int 0x80) could name other numbers. */
        WH_LOAD(arch),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, WH_AUDIT_ARCH, 1, 0),
        BPF_STMT(BPF_RET | BPF_K, WH_ERRNO(ENOSYS)),
        WH_LOAD(nr),
#if defined(__x86_64__)
        /* x32 calls (bit 30) name the same calls by other numbers. */
        BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, WH_ERRNO(ENOSYS)),
        /* Permission, owner and time changes by path: Landlock does not cover them. */
        WH_DENY(__NR_chmod), WH_DENY(__NR_chown), WH_DENY(__NR_lchown),
        WH_DENY(__NR_utime), WH_DENY(__NR_utimes), WH_DENY(__NR_futimesat),
#endif
        WH_DENY(__NR_fchmodat), WH_DENY(__NR_fchmodat2), WH_DENY(__NR_fchownat), WH_DENY(__NR_utimensat),
        /* Other processes' memory, the kernel's key stores, the kernel itself. */
        WH_DENY(__NR_ptrace), WH_DENY(__NR_process_vm_readv), WH_DENY(__NR_process_vm_writev),
        WH_DENY(__NR_keyctl), WH_DENY(__NR_add_key), WH_DENY(__NR_request_key),
        WH_DENY(__NR_bpf), WH_DENY(__NR_perf_event_open), WH_DENY(__NR_userfaultfd),
        WH_DENY(__NR_kexec_load), WH_DENY(__NR_init_module), WH_DENY(__NR_finit_module), WH_DENY(__NR_delete_module),
        WH_DENY(__NR_reboot), WH_DENY(__NR_swapon), WH_DENY(__NR_swapoff), WH_DENY(__NR_acct), WH_DENY(__NR_syslog),
        WH_DENY(__NR_open_by_handle_at), WH_DENY(__NR_name_to_handle_at), WH_DENY(__NR_quotactl),
        /* io_uring runs file and socket operations this filter never sees. */
        WH_DENY(__NR_io_uring_setup), WH_DENY(__NR_io_uring_enter), WH_DENY(__NR_io_uring_register),
        /* The sandbox is made before this filter; nothing may remake or leave it. */
        WH_DENY(__NR_mount), WH_DENY(__NR_umount2), WH_DENY(__NR_pivot_root), WH_DENY(__NR_chroot),
        WH_DENY(__NR_unshare), WH_DENY(__NR_setns),
        /* clone3's flags are behind a pointer: ENOSYS makes the C library use clone. */
        WH_RETURN_IF(__NR_clone3, WH_ERRNO(ENOSYS)),
        /* clone with a namespace flag */
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_clone, 0, 4),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[0])),
        BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWNET | CLONE_NEWIPC | CLONE_NEWUTS | CLONE_NEWCGROUP, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, WH_ERRNO(EPERM)),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
        /* a terminal's input (TIOCSTI pushes keystrokes into the user's shell) */
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_ioctl, 0, 4),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[1])),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0x5412 /* TIOCSTI */, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, WH_ERRNO(EPERM)),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
        /* Sockets: none without the network permission (no UDP, no Unix socket by path, no
           netlink); with it, TCP and UDP over IPv4 and IPv6, never raw or packet sockets. Unix
           sockets only for a worker given a bus proxy (the only socket file it can see). */
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_socket, 0, 12),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[0])),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AF_UNIX, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, unix_rule),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AF_INET, 2, 0),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AF_INET6, 1, 0),
        BPF_STMT(BPF_RET | BPF_K, WH_ERRNO(EACCES)),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[1])),
        BPF_STMT(BPF_ALU | BPF_AND | BPF_K, 0xf), /* the type, without SOCK_CLOEXEC/NONBLOCK */
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SOCK_STREAM, 1, 0),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SOCK_DGRAM, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, socket_rule),
        BPF_STMT(BPF_RET | BPF_K, WH_ERRNO(EACCES)),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    };
    struct sock_fprog program = {.len = (unsigned short)(sizeof filter / sizeof filter[0]), .filter = filter};
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return -errno;
    if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &program) != 0) return -errno;
    return 0;
#endif
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

/* ---- namespaces ------------------------------------------------------------------------- */

#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/statvfs.h>
#include <sys/wait.h>

static int write_file(const char *path, const char *text) {
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0) return -errno;
    ssize_t n = write(fd, text, strlen(text));
    int err = errno;
    close(fd);
    return n == (ssize_t)strlen(text) ? 0 : -(n < 0 ? err : EIO);
}

/* Closes every descriptor but `keep` (and stderr when `keep_stderr`). */
static void close_all_but(int keep, int keep_stderr) {
    for (int fd = 0; fd < 3; fd++)
        if (fd != keep && !(fd == 2 && keep_stderr)) close(fd);
    if (keep > 3) syscall(SYS_close_range, 3U, (unsigned)keep - 1, 0U);
    if (syscall(SYS_close_range, (unsigned)(keep >= 3 ? keep + 1 : 3), ~0U, 0U) != 0)
        for (int fd = keep >= 3 ? keep + 1 : 3; fd < 4096; fd++) close(fd);
}

/* Ends the calling process by `sig` as the worker ended (no second core file). */
static void end_by_signal(int sig) {
    struct rlimit none = {0, 0};
    setrlimit(RLIMIT_CORE, &none);
    signal(sig, SIG_DFL);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, sig);
    sigprocmask(SIG_UNBLOCK, &set, NULL);
    kill(getpid(), sig);
    _exit(128 + sig);
}

int widgethost_enter_process_namespaces(void) {
    uid_t uid = getuid();
    gid_t gid = getgid();
    int relay[2];
    if (pipe2(relay, O_CLOEXEC) != 0) return -errno;
    if (unshare(CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWIPC) != 0) { int e = errno; close(relay[0]); close(relay[1]); return -e; }
    char map[64];
    int rc = write_file("/proc/self/setgroups", "deny");
    if (rc == 0) { snprintf(map, sizeof map, "%u %u 1\n", (unsigned)uid, (unsigned)uid); rc = write_file("/proc/self/uid_map", map); }
    if (rc == 0) { snprintf(map, sizeof map, "%u %u 1\n", (unsigned)gid, (unsigned)gid); rc = write_file("/proc/self/gid_map", map); }
    pid_t init = rc == 0 ? fork() : -1;
    if (rc == 0 && init < 0) rc = -errno;
    if (rc != 0) { close(relay[0]); close(relay[1]); return rc; }
    if (init == 0) {
        /* pid 1 of the namespace: the kernel ignores signals it has no handler for, even its
           own raise(), so the worker runs as pid 2 and this one only reaps and relays. */
        prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
        close(relay[0]);
        pid_t worker = fork();
        if (worker < 0) _exit(71);
        if (worker == 0) {
            prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
            close(relay[1]);
            return 0;
        }
        close_all_but(relay[1], 1);
        int status = 0;
        for (;;) {
            pid_t ended = waitpid(-1, &status, 0); /* orphans the plugin left are reaped too */
            if (ended == worker) break;
            if (ended < 0 && errno != EINTR) _exit(70);
        }
        if (WIFSIGNALED(status)) {
            unsigned char sig = (unsigned char)WTERMSIG(status);
            (void)!write(relay[1], &sig, 1);
            _exit(0);
        }
        _exit(WEXITSTATUS(status));
    }
    /* The process the host started: it holds nothing of the worker's and ends as it ends. */
    close(relay[1]);
    close_all_but(relay[0], 1);
    int status = 0;
    while (waitpid(init, &status, 0) < 0)
        if (errno != EINTR) _exit(70);
    unsigned char sig = 0;
    if (read(relay[0], &sig, 1) == 1 && sig > 0) end_by_signal(sig);
    if (WIFSIGNALED(status)) end_by_signal(WTERMSIG(status));
    _exit(WEXITSTATUS(status));
}

/* mkdir -p of `path` (absolute), each part 0755. */
static int make_dirs(const char *path) {
    char buf[4096];
    if (strlen(path) >= sizeof buf) return -ENAMETOOLONG;
    strcpy(buf, path);
    for (char *p = buf + 1; *p; p++) {
        if (*p != '/') continue;
        *p = 0;
        if (mkdir(buf, 0755) != 0 && errno != EEXIST) return -errno;
        *p = '/';
    }
    if (mkdir(buf, 0755) != 0 && errno != EEXIST) return -errno;
    return 0;
}

/* The mount flags a bind's read-only remount must keep (the kernel refuses to drop them in a
   user namespace). */
static unsigned long locked_flags(const char *path) {
    struct statvfs st;
    if (statvfs(path, &st) != 0) return 0;
    unsigned long flags = 0;
    if (st.f_flag & ST_NOSUID) flags |= MS_NOSUID;
    if (st.f_flag & ST_NODEV) flags |= MS_NODEV;
    if (st.f_flag & ST_NOEXEC) flags |= MS_NOEXEC;
    if (st.f_flag & ST_NOATIME) flags |= MS_NOATIME;
    if (st.f_flag & ST_NODIRATIME) flags |= MS_NODIRATIME;
    if (st.f_flag & ST_RELATIME) flags |= MS_RELATIME;
    return flags;
}

#ifndef SYS_open_tree
#define SYS_open_tree 428
#define SYS_move_mount 429
#endif
#ifndef SYS_openat2
#define SYS_openat2 437
#endif
#define WH_OPEN_TREE_CLONE 1U
#define WH_MOVE_MOUNT_F_EMPTY_PATH 0x4U
#define WH_RESOLVE_IN_ROOT 0x10ULL
#ifndef AT_RECURSIVE
#define AT_RECURSIVE 0x8000
#endif

struct wh_open_how {
    uint64_t flags;
    uint64_t mode;
    uint64_t resolve;
};

/* `path` opened (O_PATH) as the old root `oldroot` has it: every link on the way, absolute ones
   too (/home -> /data/home), followed inside the old root; the last one too unless `nofollow`. */
static int open_in_old_root(int oldroot, const char *path, int nofollow) {
    struct wh_open_how how = {.flags = O_PATH | O_CLOEXEC | (nofollow ? O_NOFOLLOW : 0), .resolve = WH_RESOLVE_IN_ROOT};
    return (int)syscall(SYS_openat2, oldroot, path, &how, sizeof how);
}

/* Makes `path` of the old root (`oldroot`, a descriptor of it) appear at /newroot/path: a
   symbolic link as the same link, a directory or file bound (read-only unless `writable`).
   Absent: skipped. */
static int expose_at(int oldroot, const char *path, const char *at, int writable) {
    char dst[4096];
    if (snprintf(dst, sizeof dst, "/newroot%s", at) >= (int)sizeof dst) return -ENAMETOOLONG;
    int fd = open_in_old_root(oldroot, path, 1);
    if (fd < 0) return errno == ENOSYS ? -ENOSYS : 0;
    struct stat st;
    int rc = fstatat(fd, "", &st, AT_EMPTY_PATH) == 0 ? 0 : -errno;
    char *slash = strrchr(dst, '/');
    if (rc == 0 && slash && slash != dst) {
        *slash = 0;
        rc = make_dirs(dst);
        *slash = '/';
    }
    if (rc == 0 && S_ISLNK(st.st_mode)) {
        /* /lib -> usr/lib, /etc/localtime -> /usr/share/zoneinfo/…: the same link (the time
           zone's name is read from it). A link elsewhere (/etc/resolv.conf -> /run/…) is bound. */
        char target[4096];
        ssize_t n = readlinkat(fd, "", target, sizeof target - 1);
        close(fd);
        if (n < 0) return -errno;
        target[n] = 0;
        if (target[0] != '/' || strncmp(target, "/usr/", 5) == 0) {
            if (symlink(target, dst) != 0 && errno != EEXIST) return -errno;
            return 0;
        }
        fd = open_in_old_root(oldroot, path, 0);
        if (fd < 0) return 0;
        rc = fstatat(fd, "", &st, AT_EMPTY_PATH) == 0 ? 0 : -errno;
    }
    if (rc == 0 && S_ISDIR(st.st_mode)) {
        if (mkdir(dst, 0755) != 0 && errno != EEXIST) rc = -errno;
    } else if (rc == 0) {
        int made = open(dst, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
        if (made < 0 && errno != EEXIST) rc = -errno;
        if (made >= 0) close(made);
    }
    /* The bind is made from the descriptor: the path is not resolved again outside the old root. */
    int tree = rc == 0 ? (int)syscall(SYS_open_tree, fd, "", WH_OPEN_TREE_CLONE | AT_RECURSIVE | AT_EMPTY_PATH | O_CLOEXEC) : -1;
    if (rc == 0 && tree < 0) rc = -errno;
    close(fd);
    if (rc != 0) return rc;
    rc = syscall(SYS_move_mount, tree, "", AT_FDCWD, dst, WH_MOVE_MOUNT_F_EMPTY_PATH) == 0 ? 0 : -errno;
    close(tree);
    if (rc != 0) return rc;
    if (!writable && mount(NULL, dst, NULL, MS_BIND | MS_REMOUNT | MS_RDONLY | locked_flags(dst), NULL) != 0) return -errno;
    return 0;
}

/* Binds `path` of the old root read-only, non-recursively, at /newroot`dst`, for statvfs only
   (no Landlock rule covers it). A volume that cannot be bound (a mount beneath it the kernel
   locked, a vanished path) is left out: 0 either way, the mount-sizes widget shows fewer. */
static int expose_for_statvfs(int oldroot, const char *path, const char *dst_in_root) {
    char dst[4096];
    if (snprintf(dst, sizeof dst, "/newroot%s", dst_in_root) >= (int)sizeof dst) return 0;
    int fd = open_in_old_root(oldroot, path, 1);
    if (fd < 0) return 0;
    int tree = (int)syscall(SYS_open_tree, fd, "", WH_OPEN_TREE_CLONE | AT_EMPTY_PATH | O_CLOEXEC);
    close(fd);
    if (tree < 0) return 0;
    int ok = make_dirs(dst) == 0 && syscall(SYS_move_mount, tree, "", AT_FDCWD, dst, WH_MOVE_MOUNT_F_EMPTY_PATH) == 0;
    close(tree);
    if (ok && mount(NULL, dst, NULL, MS_BIND | MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC | locked_flags(dst), NULL) != 0)
        umount2(dst, MNT_DETACH); /* never left writable */
    return 0;
}

static int expose(int oldroot, const char *path, int writable) { return expose_at(oldroot, path, path, writable); }

int widgethost_enter_filesystem_namespace(const char *const *read_only, size_t read_only_count,
                                          const char *const *read_write, size_t read_write_count,
                                          const char *const *stat_sources, const char *const *stat_destinations,
                                          size_t stat_count, int allow_network, const char *bus_directory) {
    if (unshare(CLONE_NEWNS | (allow_network ? 0 : CLONE_NEWNET)) != 0) return -errno;
    if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0) return -errno;
    /* A tmpfs made the root, the old root beneath it at /oldroot (so sources under /tmp stay
       reachable), then the new root built at /newroot and made the root in its turn. */
    if (mount("tmpfs", "/tmp", "tmpfs", MS_NOSUID | MS_NODEV, "mode=0755,size=1m") != 0) return -errno;
    if (chdir("/tmp") != 0) return -errno;
    if (mkdir("oldroot", 0755) != 0 || mkdir("newroot", 0755) != 0) return -errno;
    if (syscall(SYS_pivot_root, "/tmp", "/tmp/oldroot") != 0) return -errno;
    if (chdir("/") != 0) return -errno;
    if (mount("tmpfs", "/newroot", "tmpfs", MS_NOSUID | MS_NODEV, "mode=0755,size=1m") != 0) return -errno;
    int oldroot = open("/oldroot", O_PATH | O_DIRECTORY | O_CLOEXEC);
    if (oldroot < 0) return -errno;
    int rc = 0;
    for (size_t i = 0; i < read_only_count && rc == 0; i++) rc = expose(oldroot, read_only[i], 0);
    for (size_t i = 0; i < read_write_count && rc == 0; i++) rc = expose(oldroot, read_write[i], 1);
    for (size_t i = 0; i < stat_count && rc == 0; i++) rc = expose_for_statvfs(oldroot, stat_sources[i], stat_destinations[i]);
    if (rc == 0 && bus_directory) rc = expose_at(oldroot, bus_directory, WIDGETHOST_BUS_DIRECTORY, 0);
    close(oldroot);
    if (rc != 0) return rc;
    /* The PID namespace's own /proc: its processes only; system-wide figures stay right. */
    if (make_dirs("/newroot/proc") != 0) return -errno;
    if (mount("proc", "/newroot/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) != 0) return -errno;
    if (chdir("/newroot") != 0) return -errno;
    if (syscall(SYS_pivot_root, ".", ".") != 0) return -errno;
    if (umount2(".", MNT_DETACH) != 0) return -errno;
    if (chdir("/") != 0) return -errno;
    /* Nothing but the mounts in it can be written; the root itself is read-only. */
    if (mount(NULL, "/", NULL, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV, NULL) != 0) return -errno;
    return 0;
}

int widgethost_probe_isolation(void) {
    pid_t child = fork();
    if (child < 0) return -errno;
    if (child == 0) {
        if (unshare(CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWIPC | CLONE_NEWNS | CLONE_NEWNET) != 0) _exit(1);
        _exit(widgethost_seccomp_apply(0) == 0 ? 0 : 2);
    }
    int status = 0;
    while (waitpid(child, &status, 0) < 0)
        if (errno != EINTR) return -errno;
    if (!WIFEXITED(status)) return -EIO;
    return WEXITSTATUS(status);
}
