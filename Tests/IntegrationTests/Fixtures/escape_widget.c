/*
 * Escape probe plugin for SandboxTests (issue 23), written against widget_plugin.h alone. Kind
 * "escape" (systemSmall). Its timeline tries each way out of the sandbox a plugin was seen to
 * take; its text names those that got through, "escaped: <key> <key>…", or "escaped: none":
 *   ctl     connects to the host's control socket -DSOCKET by path and asks for its status
 *   netunix finds the control socket in /proc/net/unix
 *   env     reads /proc/<host>/environ (-DHOSTPID)    maps  its /proc/<host>/maps
 *   fd      lists /proc/<host>/fd                     ptrace attaches to the host
 *   agent   connects to the ssh-agent socket -DAGENT  agentenv  finds SSH_AUTH_SOCK in its environment
 *   runtime sees -DRUNTIME (the host's XDG_RUNTIME_DIR) home  sees -DSECRET (a file in $HOME)
 *   chmod   chmods -DVICTIM to 0644                   utime  sets its times
 *   udp     sends a datagram to 127.0.0.1:-DUDPPORT   tcp    connects to 127.0.0.1:-DTCPPORT
 *   raw     opens a raw IPv4 socket                   packet opens a packet socket
 *   keyctl  reads the user keyring's id
 * With -DNETWORK the manifest asks for the "network" permission.
 */
#include "widget_plugin.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/if_ether.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#ifdef NETWORK
#define PERMISSIONS ",\"permissions\":[\"network\"]"
#else
#define PERMISSIONS ""
#endif

static int32_t answer(char *body, uint8_t **response, size_t *response_length) {
    if (!body) return 1;
    *response = (uint8_t *)body;
    *response_length = strlen(body);
    return 0;
}

static char *copy(const char *s) {
    char *out = malloc(strlen(s) + 1);
    if (out) strcpy(out, s);
    return out;
}

static int unix_connect(const char *path) {
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    struct sockaddr_un a = {.sun_family = AF_UNIX};
    snprintf(a.sun_path, sizeof a.sun_path, "%s", path);
    if (connect(fd, (struct sockaddr *)&a, sizeof a) != 0) { close(fd); return -1; }
    return fd;
}

/* Asked for the status, the host answered. */
static int control_answers(void) {
    int fd = unix_connect(SOCKET);
    if (fd < 0) return 0;
    const char *req = "{\"op\":\"status\"}\n";
    int answered = 0;
    if (write(fd, req, strlen(req)) == (ssize_t)strlen(req)) {
        struct pollfd p = {.fd = fd, .events = POLLIN};
        char b[64];
        answered = poll(&p, 1, 2000) == 1 && read(fd, b, sizeof b) > 0;
    }
    close(fd);
    return answered;
}

static int readable(const char *path) {
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return 0;
    char b[16];
    int ok = read(fd, b, sizeof b) > 0;
    close(fd);
    return ok;
}

static int file_mentions(const char *path, const char *what) {
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return 0;
    size_t cap = 1 << 20, len = 0;
    char *b = malloc(cap);
    ssize_t n;
    while (b && len + 1 < cap && (n = read(fd, b + len, cap - len - 1)) > 0) len += (size_t)n;
    close(fd);
    if (!b) return 0;
    b[len] = 0;
    int found = strstr(b, what) != NULL;
    free(b);
    return found;
}

static int listable(const char *path) {
    DIR *d = opendir(path);
    if (!d) return 0;
    int ok = readdir(d) != NULL;
    closedir(d);
    return ok;
}

/* A datagram sent to, or a connection made with, 127.0.0.1:port. */
static int reached(int type, int port) {
    int fd = socket(AF_INET, type | SOCK_CLOEXEC, 0);
    if (fd < 0) return 0;
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    int ok = type == SOCK_DGRAM ? sendto(fd, "escape", 6, 0, (struct sockaddr *)&a, sizeof a) == 6
                                : connect(fd, (struct sockaddr *)&a, sizeof a) == 0;
    close(fd);
    return ok;
}

static int opened(int domain, int type, int protocol) {
    int fd = socket(domain, type | SOCK_CLOEXEC, protocol);
    if (fd < 0) return 0;
    close(fd);
    return 1;
}

static int traced(pid_t pid) {
    if (ptrace(PTRACE_SEIZE, pid, 0, 0) != 0) return 0;
    ptrace(PTRACE_DETACH, pid, 0, 0);
    return 1;
}

static int32_t fixture_invoke(const uint8_t *request, size_t request_length,
                              uint8_t **response, size_t *response_length) {
    char req[512];
    size_t n = request_length < sizeof req - 1 ? request_length : sizeof req - 1;
    memcpy(req, request, n);
    req[n] = 0;
    if (strstr(req, "\"op\":\"describe\""))
        return answer(copy("{\"manifest\":{\"abiVersion\":1,\"appGroups\":[],\"bundleId\":\"org.example.escape\","
                           "\"sdkVersion\":\"\",\"widgets\":[{\"configuration\":\"StaticConfiguration\","
                           "\"description\":\"Escape probe.\",\"displayName\":\"Escape\","
                           "\"families\":[\"systemSmall\"],\"kind\":\"escape\",\"parameters\":[]}]" PERMISSIONS "},"
                           "\"ok\":true}"), response, response_length);
    if (!strstr(req, "\"op\":\"timeline\"")) return answer(copy("{\"ok\":true}"), response, response_length);
    char host[64], text[1024], body[1536];
    struct timeval times[2] = {{0, 0}, {0, 0}};
    snprintf(host, sizeof host, "/proc/%d", HOSTPID);
    char environ_path[96], maps_path[96], fd_path[96];
    snprintf(environ_path, sizeof environ_path, "%s/environ", host);
    snprintf(maps_path, sizeof maps_path, "%s/maps", host);
    snprintf(fd_path, sizeof fd_path, "%s/fd", host);
    struct stat st;
    int agent = unix_connect(AGENT);
    if (agent >= 0) close(agent);
    const struct { const char *key; int ok; } tried[] = {
        {"ctl", control_answers()}, {"netunix", file_mentions("/proc/net/unix", "control.sock")},
        {"env", readable(environ_path)}, {"maps", readable(maps_path)}, {"fd", listable(fd_path)},
        {"ptrace", traced(HOSTPID)}, {"agent", agent >= 0}, {"agentenv", getenv("SSH_AUTH_SOCK") != NULL},
        {"runtime", stat(RUNTIME, &st) == 0}, {"home", stat(SECRET, &st) == 0},
        {"chmod", chmod(VICTIM, 0644) == 0}, {"utime", utimes(VICTIM, times) == 0},
        {"udp", reached(SOCK_DGRAM, UDPPORT)}, {"tcp", reached(SOCK_STREAM, TCPPORT)},
        {"raw", opened(AF_INET, SOCK_RAW, IPPROTO_ICMP)}, {"packet", opened(AF_PACKET, SOCK_RAW, htons(ETH_P_ALL))},
        {"keyctl", syscall(SYS_keyctl, 0 /* KEYCTL_GET_KEYRING_ID */, -4 /* KEY_SPEC_USER_KEYRING */, 0) >= 0},
    };
    /* Only what got through (the text is cut to the family's width). */
    int escaped = 0;
    snprintf(text, sizeof text, "escaped:");
    for (size_t i = 0; i < sizeof tried / sizeof tried[0]; i++)
        if (tried[i].ok) { strncat(text, " ", sizeof text - strlen(text) - 1); strncat(text, tried[i].key, sizeof text - strlen(text) - 1); escaped++; }
    if (!escaped) strncat(text, " none", sizeof text - strlen(text) - 1);
    snprintf(body, sizeof body, "{\"entries\":[{\"date\":%ld,\"view\":{\"kind\":\"text\",\"text\":\"%s\"}}],"
             "\"ok\":true,\"policy\":{\"type\":\"never\"}}", (long)time(NULL), text);
    return answer(copy(body), response, response_length);
}

static void fixture_free(uint8_t *buffer) { free(buffer); }

static const widget_plugin_v1 fixture_table = {
    .abi_version = WIDGET_PLUGIN_ABI_VERSION,
    .struct_size = sizeof(widget_plugin_v1),
    .bundle_id = "org.example.escape",
    .sdk_version = "",
    .invoke = fixture_invoke,
    .free_buffer = fixture_free,
};

const widget_plugin_v1 *widget_plugin_entry_v1(void) { return &fixture_table; }
