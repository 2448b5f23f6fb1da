/*
 * Landlock for widgethost workers (docs/limits.md "Sandbox"): raw system calls and the kernel's
 * structures as of Landlock ABI 7, so the build does not depend on the installed kernel headers
 * (Debian's may predate the network and scope rules). Returns are 0 or a negative errno.
 */
#ifndef WIDGETHOST_SANDBOX_H
#define WIDGETHOST_SANDBOX_H

#include <stddef.h>

/* The Landlock ABI version the running kernel offers; <= 0 when it has none (or it is disabled). */
int widgethost_landlock_abi(void);

/*
 * Restricts the calling process (and every process it starts) for good, with no_new_privs:
 * `read_only` paths (and what is beneath them) may be read and executed, `read_write` ones
 * fully used; nothing else on the filesystem. Without `allow_network`, TCP connect and bind are
 * refused (ABI >= 4). From ABI 6, signals to processes outside the sandbox and abstract Unix
 * sockets are refused too. Paths that do not exist are skipped.
 */
int widgethost_landlock_apply(const char *const *read_only, size_t read_only_count,
                              const char *const *read_write, size_t read_write_count,
                              int allow_network);

/*
 * Forks a guardian for the calling process's group (a worker that leads its own group): when
 * the caller dies, however (its host killed with SIGKILL takes it down by PDEATHSIG), the
 * guardian SIGKILLs the whole group, so nothing a plugin forked outlives its worker. Call it
 * after the sandbox (a sandboxed process may signal only processes inside its sandbox, the
 * parent-death signal included) and before any plugin code runs (the guardian runs only
 * async-signal-safe code and closes every descriptor). Returns its pid, or a negative errno.
 */
int widgethost_start_group_guardian(void);

/*
 * Asks the kernel to send `sig` to the calling process when the thread that started it exits
 * (PR_SET_PDEATHSIG), for helpers that must not outlive the host even while busy (the render
 * process). Returns 0, or a negative errno.
 */
int widgethost_exit_with_parent(int sig);

/*
 * Names the calling thread (PR_SET_NAME, at most 15 bytes: what `ps -o comm`, `top` and the
 * journal show): a worker started from /proc/self/fd/N would otherwise be called "N".
 * Returns 0, or a negative errno.
 */
int widgethost_set_process_name(const char *name);

/*
 * A seccomp filter on the calling process and its children, for good: permission, owner and
 * time changes by path (chmod family, chown family, utimes family: Landlock does not cover
 * them), ptrace and other processes' memory, the key stores (keyctl, add_key, request_key),
 * mount, pivot_root, unshare, setns and namespace flags to clone, bpf, perf, io_uring, module
 * and reboot calls, TIOCSTI are refused with EPERM (clone3 with ENOSYS, so the C library uses
 * clone). Sockets: none without WIDGETHOST_ALLOW_NETWORK in `allow` (EACCES); with it, TCP and UDP
 * over IPv4 and IPv6 only (no raw, packet or netlink sockets); Unix sockets only with
 * WIDGETHOST_ALLOW_UNIX. Calls of another architecture fail. Sets
 * no_new_privs. Returns 0 or a negative errno.
 */
int widgethost_seccomp_apply(int allow);
/* `allow` of widgethost_seccomp_apply: TCP and UDP sockets; Unix sockets (a worker given a bus proxy). */
#define WIDGETHOST_ALLOW_NETWORK 1
#define WIDGETHOST_ALLOW_UNIX 2

/*
 * Moves the calling process (single-threaded) into new user (its uid and gid mapped to
 * themselves), PID and IPC namespaces and forks twice: returns 0 in the worker, pid 2 of the
 * new PID namespace. Pid 1 (the kernel ignores the signals it has no handler for, even its own
 * raise()) only reaps, and tells the calling process how the worker ended; the calling process
 * closes every descriptor but stderr, waits, and ends as the worker ended (by the same signal,
 * or with the same status): it never returns. Each dies with its parent. A negative errno when
 * the namespaces cannot be made.
 */
int widgethost_enter_process_namespaces(void);

/*
 * In a new mount namespace (and a new, empty network namespace unless `allow_network`), makes
 * the calling process's root a read-only tmpfs holding only `read_only` paths (bound read-only;
 * a symbolic link whose target is relative or under /usr is made again as a link), `read_write`
 * paths (bound read-write), each at its own path, and a fresh /proc of the caller's PID
 * namespace. The links on a path's way, absolute ones too (/home -> /data/home), are followed
 * inside the caller's old root (openat2 RESOLVE_IN_ROOT, bound from the descriptor with
 * open_tree). Paths that do not exist are skipped. Call it in the user namespace the caller made (it needs
 * CAP_SYS_ADMIN there). `stat_sources[i]` (host directories) are bound read-only, nosuid, nodev,
 * noexec and non-recursively at `stat_destinations[i]`, for statvfs (the mount-sizes
 * declaration); one that cannot be bound is left out. `bus_directory`, when given, is bound
 * read-only at WIDGETHOST_BUS_DIRECTORY. Returns 0 or a negative errno.
 */
int widgethost_enter_filesystem_namespace(const char *const *read_only, size_t read_only_count,
                                          const char *const *read_write, size_t read_write_count,
                                          const char *const *stat_sources, const char *const *stat_destinations,
                                          size_t stat_count, int allow_network, const char *bus_directory);
/* Where `bus_directory` (a worker's bus proxy's folder, or NULL) appears, read-only: the proxy's
   socket is `bus` in it (docs/limits.md "D-Bus"). */
#define WIDGETHOST_BUS_DIRECTORY "/run/widgethost-bus"

/*
 * Whether this kernel lets an unprivileged process make user, PID, IPC, mount and network
 * namespaces and load a seccomp filter, tried in a forked child: 0 yes, 1 no namespaces, 2 no
 * seccomp, a negative errno when the probe itself failed.
 */
int widgethost_probe_isolation(void);

#endif
