/*
 * The network-counters and mount-sizes declarations' probe (NetworkDiskSandboxTests.swift),
 * written against widget_plugin.h alone. Kind "probe" (systemSmall); its timeline's text says
 * what its sandbox lets it see, short enough for a bar's line (64 columns):
 *   n=<how many interfaces /proc/net/dev lists>[:<the first that is not lo>]
 *   u=… i=… (a Unix and a TCP socket made: "ok", "no" (EACCES), "EPERM"…)
 *   r=<MiB of the root volume through /run/host/mounts/%2F, or the errno's name>
 *   v=<MiB of -DVOLUME's bind, or the errno's name> rd=<reading -DVOLUME's file secret.txt
 *   through it> ls=<listing it>
 * With -DCOUNTERS the manifest declares "network-counters", with -DSIZES "mount-sizes".
 */
#include "widget_plugin.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#if defined(COUNTERS) && defined(SIZES)
#define PERMISSIONS ",\"permissions\":[\"network-counters\",\"mount-sizes\"]"
#elif defined(COUNTERS)
#define PERMISSIONS ",\"permissions\":[\"network-counters\"]"
#elif defined(SIZES)
#define PERMISSIONS ",\"permissions\":[\"mount-sizes\"]"
#else
#define PERMISSIONS ""
#endif
#ifndef VOLUME
#define VOLUME ""
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

static const char *errname(int e) {
    switch (e) {
    case EACCES: return "no";
    case EPERM: return "EPERM";
    case ENOENT: return "ENOENT";
    default: return "other";
    }
}

static const char *try_socket(int domain, int type) {
    int fd = socket(domain, type | SOCK_CLOEXEC, 0);
    if (fd < 0) return errname(errno);
    close(fd);
    return "ok";
}

/* The size in MiB of the volume at `path`, or the errno's name. */
static void volume_total(const char *path, char *out, size_t size) {
    struct statvfs st;
    if (statvfs(path, &st) != 0) snprintf(out, size, "%s", errname(errno));
    else snprintf(out, size, "%llu", (unsigned long long)st.f_blocks * (unsigned long long)(st.f_frsize ? st.f_frsize : st.f_bsize) >> 20);
}

/* How many interfaces /proc/net/dev lists, and the first that is not lo after a colon. */
static void interfaces(char *out, size_t size) {
    FILE *f = fopen("/proc/net/dev", "re");
    if (!f) { snprintf(out, size, "%s", errname(errno)); return; }
    char line[512], first[64] = "";
    int count = 0;
    while (fgets(line, sizeof line, f)) {
        char *colon = strchr(line, ':');
        if (!colon) continue;
        *colon = 0;
        char *name = line;
        while (*name == ' ') name++;
        count++;
        if (!first[0] && strcmp(name, "lo") != 0) snprintf(first, sizeof first, ":%s", name);
    }
    fclose(f);
    snprintf(out, size, "%d%s", count, first);
}

/* -DVOLUME as its bind is named: /run/host/mounts/ + the path with % and / percent-encoded. */
static void bound(const char *path, char *out, size_t size) {
    size_t n = (size_t)snprintf(out, size, "/run/host/mounts/");
    for (const char *p = path; *p && n + 4 < size; p++) {
        if (*p == '/') n += (size_t)snprintf(out + n, size - n, "%%2F");
        else if (*p == '%') n += (size_t)snprintf(out + n, size - n, "%%25");
        else out[n++] = *p, out[n] = 0;
    }
}

static int32_t probe_invoke(const uint8_t *request, size_t request_length, uint8_t **response, size_t *response_length) {
    char req[512];
    size_t n = request_length < sizeof req - 1 ? request_length : sizeof req - 1;
    memcpy(req, request, n);
    req[n] = 0;
    if (strstr(req, "\"op\":\"describe\""))
        return answer(copy("{\"manifest\":{\"abiVersion\":1,\"appGroups\":[],\"bundleId\":\"org.example.netdiskprobe\","
                           "\"sdkVersion\":\"\",\"widgets\":[{\"configuration\":\"StaticConfiguration\","
                           "\"description\":\"Sandbox probe.\",\"displayName\":\"Probe\","
                           "\"families\":[\"systemSmall\"],\"kind\":\"probe\",\"parameters\":[]}]" PERMISSIONS "},"
                           "\"ok\":true}"), response, response_length);
    if (!strstr(req, "\"op\":\"timeline\"")) return answer(copy("{\"ok\":true}"), response, response_length);
    char ifs[1024], root[64], vol[64], path[1024], secret[1200], text[1800], body[2048];
    interfaces(ifs, sizeof ifs);
    volume_total("/run/host/mounts/%2F", root, sizeof root);
    const char *rd = "none", *ls = "none";
    vol[0] = 0;
    if (VOLUME[0]) {
        bound(VOLUME, path, sizeof path);
        volume_total(path, vol, sizeof vol);
        snprintf(secret, sizeof secret, "%s/secret.txt", path);
        int fd = open(secret, O_RDONLY | O_CLOEXEC);
        rd = fd >= 0 ? "ok" : errname(errno);
        if (fd >= 0) close(fd);
        DIR *d = opendir(path);
        ls = d ? "ok" : errname(errno);
        if (d) closedir(d);
    }
    snprintf(text, sizeof text, "n=%s u=%s i=%s r=%s v=%s rd=%s ls=%s", ifs, try_socket(AF_UNIX, SOCK_STREAM),
             try_socket(AF_INET, SOCK_STREAM), root, vol, rd, ls);
    snprintf(body, sizeof body, "{\"entries\":[{\"date\":%ld,\"view\":{\"kind\":\"text\",\"text\":\"%s\"}}],\"ok\":true,"
             "\"policy\":{\"type\":\"never\"}}", (long)time(NULL), text);
    return answer(copy(body), response, response_length);
}

static void probe_free(uint8_t *buffer) { free(buffer); }

static const widget_plugin_v1 probe_table = {
    .abi_version = WIDGET_PLUGIN_ABI_VERSION,
    .struct_size = sizeof(widget_plugin_v1),
    .bundle_id = "org.example.netdiskprobe",
    .sdk_version = "",
    .invoke = probe_invoke,
    .free_buffer = probe_free,
};

const widget_plugin_v1 *widget_plugin_entry_v1(void) { return &probe_table; }
