/*
 * Fault-injection fixture plugin for the containment tests (FaultInjectionTests.swift, issue 15),
 * written against widget_plugin.h alone. Kind "fault" (systemSmall); its timeline misbehaves as
 * -DFAULT=… says:
 *   0  answers normally: text "fine <pid of the worker>"
 *   1  an entry dated "nan"                 2  an entry dated "-inf"
 *   3  an entry dated 1e300                 4  policy .after("-inf")
 *   5  a gauge whose value is "nan"         6  a frame whose width is "inf"
 *   7  a lazyVGrid whose adaptive item's minimum + spacing is 0 (1 and -1; in range, drawn: "g1 g2")
 *   8  the same grid with a minimum of "nan" (issue 23)
 *   10 forks a child that sleeps for an hour (holding the worker's pipes), then hangs
 *   11 forks such a child, then answers normally ("forked <child pid>")
 *   12 like 11, but the child leaves the worker's process group first (setsid)
 *   20 spams stderr for ever (the host must throttle it), answering first
 *   30 probes its sandbox: reads -DSECRET="\"/path\"", creates -DPLANT="\"/path\"", reads and writes
 *      $WIDGETHOST_CONTAINERS/group.fault/{inside,written}.txt, connects to 127.0.0.1:-DPORT; its
 *      text says what each got: "rh=… wh=… rg=… wg=… cn=…" (read/write home, read/write group,
 *      connect), each "ok", "no" (EACCES), or another errno's name; its describe tries to create
 *      $WIDGETHOST_CONTAINERS/group.fault/described.txt
 * With -DAPP_GROUP="\"group.x\"" the manifest declares that app group; with -DNETWORK it asks
 * for the "network" permission.
 */
#include "widget_plugin.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#ifndef FAULT
#define FAULT 0
#endif
#ifdef APP_GROUP
#define GROUPS "\"" APP_GROUP "\""
#else
#define GROUPS ""
#endif
#ifdef NETWORK
#define PERMISSIONS ",\"permissions\":[\"network\"]"
#else
#define PERMISSIONS ""
#endif
/* With -DFILESYSTEM="\"/path:ro\"" the manifest declares that read-only path (CalendarSandboxTests). */
#ifdef FILESYSTEM
#define FILESYSTEMS ",\"filesystems\":[\"" FILESYSTEM "\"]"
#else
#define FILESYSTEMS ""
#endif

static int32_t answer(char *body, uint8_t **response, size_t *response_length) {
    if (!body) return 1;
    *response = (uint8_t *)body;
    *response_length = strlen(body);
    return 0;
}

static char *text(const char *s) {
    char *out = malloc(strlen(s) + 1);
    if (out) strcpy(out, s);
    return out;
}

/* A timeline of one entry with `date` (JSON) and `view` (JSON), policy `policy` (JSON). */
static char *timeline(const char *date, const char *view, const char *policy) {
    size_t cap = strlen(date) + strlen(view) + strlen(policy) + 128;
    char *body = malloc(cap);
    if (body) snprintf(body, cap, "{\"entries\":[{\"date\":%s,\"view\":%s}],\"ok\":true,\"policy\":%s}", date, view, policy);
    return body;
}

/* "ok" or the errno's name (the few a sandbox gives). */
static const char *outcome(int rc) {
    if (rc >= 0) return "ok";
    switch (errno) {
    case EACCES: return "no";
    case EPERM: return "EPERM";
    case ENOENT: return "ENOENT";
    case ECONNREFUSED: return "ECONNREFUSED";
    default: return "other";
    }
}

static int try_read(const char *path) {
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    char b[16];
    int rc = (int)read(fd, b, sizeof b);
    close(fd);
    return rc;
}

static int try_write(const char *path) {
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0) return -1;
    int rc = (int)write(fd, "planted\n", 8);
    close(fd);
    return rc;
}

static int try_connect(int port) {
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    int rc = connect(fd, (struct sockaddr *)&a, sizeof a);
    int e = errno;
    close(fd);
    errno = e;
    return rc;
}

static pid_t sleeping_child(int own_session) {
    pid_t child = fork();
    if (child == 0) {
        if (own_session) setsid();
        sleep(3600);
        _exit(0);
    }
    return child;
}

static int32_t fixture_invoke(const uint8_t *request, size_t request_length,
                              uint8_t **response, size_t *response_length) {
    char req[512];
    size_t n = request_length < sizeof req - 1 ? request_length : sizeof req - 1;
    memcpy(req, request, n);
    req[n] = 0;
    if (strstr(req, "\"op\":\"describe\"")) {
#if FAULT == 30
        /* describe runs under the base sandbox: this write must be refused even when the
           manifest declares the group (SandboxTests). */
        const char *groups = getenv("WIDGETHOST_CONTAINERS");
        char described[1024];
        snprintf(described, sizeof described, "%s/group.fault/described.txt", groups ? groups : "");
        (void)try_write(described);
#endif
        return answer(text("{\"manifest\":{\"abiVersion\":1,\"appGroups\":[" GROUPS "],\"bundleId\":\"org.example.fault\","
                           "\"sdkVersion\":\"\",\"widgets\":[{\"configuration\":\"StaticConfiguration\","
                           "\"description\":\"Fault injection.\",\"displayName\":\"Fault\","
                           "\"families\":[\"systemSmall\"],\"kind\":\"fault\",\"parameters\":[]}]" PERMISSIONS FILESYSTEMS "},"
                           "\"ok\":true}"), response, response_length);
    }
    if (!strstr(req, "\"op\":\"timeline\"")) return answer(text("{\"ok\":true}"), response, response_length);
    char now[32], view[256];
    snprintf(now, sizeof now, "%ld", (long)time(NULL));
    const char *never = "{\"type\":\"never\"}";
    switch (FAULT) {
    case 1: return answer(timeline("\"nan\"", "{\"kind\":\"text\",\"text\":\"nan\"}", never), response, response_length);
    case 2: return answer(timeline("\"-inf\"", "{\"kind\":\"text\",\"text\":\"-inf\"}", never), response, response_length);
    case 3: return answer(timeline("1e300", "{\"kind\":\"text\",\"text\":\"far\"}", never), response, response_length);
    case 4: return answer(timeline(now, "{\"kind\":\"text\",\"text\":\"policy\"}", "{\"date\":\"-inf\",\"type\":\"after\"}"),
                          response, response_length);
    case 5: return answer(timeline(now, "{\"bounds\":[0,1],\"kind\":\"gauge\",\"value\":\"nan\"}", never), response, response_length);
    case 6: return answer(timeline(now, "{\"kind\":\"text\",\"modifiers\":{\"frame\":{\"width\":\"inf\"}},\"text\":\"wide\"}", never),
                          response, response_length);
    case 7:
    case 8:
        snprintf(view, sizeof view, "{\"children\":[{\"kind\":\"text\",\"text\":\"g1\"},{\"kind\":\"text\",\"text\":\"g2\"}],"
                 "\"gridItems\":[{\"minimum\":%s,\"size\":\"adaptive\",\"spacing\":-1}],\"kind\":\"lazyVGrid\"}",
                 FAULT == 7 ? "1" : "\"nan\"");
        return answer(timeline(now, view, never), response, response_length);
    case 10:
        sleeping_child(0);
        for (;;) pause();
    case 11:
    case 12:
        snprintf(view, sizeof view, "{\"kind\":\"text\",\"text\":\"forked %ld\"}", (long)sleeping_child(FAULT == 12));
        return answer(timeline(now, view, "{\"type\":\"atEnd\"}"), response, response_length);
    case 20:
        if (fork() == 0) {
            /* the spammer shares the worker's stderr; it lives as long as the worker's group */
            /* until nobody reads (the worker ignores SIGPIPE, and so does this child) */
            while (fputs("spam spam spam spam spam spam spam spam spam spam spam spam spam spam\n", stderr) >= 0 && fflush(stderr) == 0) {}
            _exit(0);
        }
        break;
#if FAULT == 30
    case 30: {
        const char *root = getenv("WIDGETHOST_CONTAINERS");
        char inside[1024], written[1024], text[512], body[768];
        snprintf(inside, sizeof inside, "%s/group.fault/inside.txt", root ? root : "");
        snprintf(written, sizeof written, "%s/group.fault/written.txt", root ? root : "");
        const char *rh = outcome(try_read(SECRET));
        const char *wh = outcome(try_write(PLANT));
        const char *rg = outcome(try_read(inside));
        const char *wg = outcome(try_write(written));
        const char *cn = outcome(try_connect(PORT));
        snprintf(text, sizeof text, "rh=%s wh=%s rg=%s wg=%s cn=%s", rh, wh, rg, wg, cn);
        snprintf(body, sizeof body, "{\"kind\":\"text\",\"text\":\"%s\"}", text);
        /* Reloaded within a minute: its worker does not rest (the host's WorkerRest), so the
         * test reads the status of the processes that answered. */
        char soon[96];
        snprintf(soon, sizeof soon, "{\"date\":%ld,\"type\":\"after\"}", (long)time(NULL) + 60);
        return answer(timeline(now, body, soon), response, response_length);
    }
#endif
    default: break;
    }
    snprintf(view, sizeof view, "{\"kind\":\"text\",\"text\":\"fine %ld\"}", (long)getpid());
    return answer(timeline(now, view, never), response, response_length);
}

static void fixture_free(uint8_t *buffer) { free(buffer); }

static const widget_plugin_v1 fixture_table = {
    .abi_version = WIDGET_PLUGIN_ABI_VERSION,
    .struct_size = sizeof(widget_plugin_v1),
    .bundle_id = "org.example.fault",
    .sdk_version = "",
    .invoke = fixture_invoke,
    .free_buffer = fixture_free,
};

const widget_plugin_v1 *widget_plugin_entry_v1(void) { return &fixture_table; }
