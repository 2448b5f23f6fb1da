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

#endif
