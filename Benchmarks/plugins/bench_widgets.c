/*
 * Widgets for the benchmarks, in C so the host's own costs are what is measured:
 *   file0 … file9  show $WIDGETHOST_CONTAINERS/group.bench/file<i>.txt (policy never: the host
 *                  reloads them when the container changes); accessoryInline, and systemSmall
 *                  for the desktop workload (W9)
 *   clock          60 entries one second apart, policy atEnd (text HH:MM:SS, UTC)
 *   tick           60 entries one second apart, policy atEnd (the scale workload)
 *   idle           one entry, policy never (the idle workload)
 * Build: cc -shared -fPIC -O2 -I Sources/CWidgetPluginABI/include -o X.so bench_widgets.c
 */
#include "widget_plugin.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int32_t reply(const char *body, uint8_t **response, size_t *length) {
    *length = strlen(body);
    *response = malloc(*length + 1);
    if (!*response) return 1;
    memcpy(*response, body, *length + 1);
    return 0;
}

static void read_file(int index, char *out, size_t cap) {
    const char *root = getenv("WIDGETHOST_CONTAINERS");
    char path[1024];
    snprintf(path, sizeof path, "%s/group.bench/file%d.txt", root ? root : ".", index);
    FILE *f = fopen(path, "r");
    size_t n = 0;
    if (f) { n = fread(out, 1, cap - 1, f); fclose(f); }
    out[n] = 0;
    for (size_t i = 0; i < n; i++) if (out[i] == '"' || out[i] == '\\' || (unsigned char)out[i] < 32) out[i] = ' ';
}

static int32_t bench_invoke(const uint8_t *request, size_t request_length, uint8_t **response, size_t *response_length) {
    char req[512];
    size_t n = request_length < sizeof req - 1 ? request_length : sizeof req - 1;
    memcpy(req, request, n);
    req[n] = 0;
    static char body[65536];
    long now = (long)time(NULL);
    if (strstr(req, "\"op\":\"describe\"")) {
        char widgets[8192] = "";
        for (int i = 0; i < 10; i++) {
            char w[256];
            snprintf(w, sizeof w, "{\"configuration\":\"StaticConfiguration\",\"description\":\"\",\"displayName\":\"file%d\","
                     "\"families\":[\"accessoryInline\",\"systemSmall\"],\"kind\":\"file%d\",\"parameters\":[]},", i, i);
            strcat(widgets, w);
        }
        const char *names[] = {"clock", "tick", "idle"};
        for (int i = 0; i < 3; i++) {
            char w[256];
            snprintf(w, sizeof w, "{\"configuration\":\"StaticConfiguration\",\"description\":\"\",\"displayName\":\"%s\","
                     "\"families\":[\"accessoryInline\"],\"kind\":\"%s\",\"parameters\":[]}%s", names[i], names[i], i < 2 ? "," : "");
            strcat(widgets, w);
        }
        snprintf(body, sizeof body, "{\"manifest\":{\"abiVersion\":1,\"appGroups\":[\"group.bench\"],\"bundleId\":\"org.widgethost.bench\","
                 "\"sdkVersion\":\"\",\"widgets\":[%s]},\"ok\":true}", widgets);
        return reply(body, response, response_length);
    }
    const char *k = strstr(req, "\"kind\":\"");
    char kind[32] = "";
    if (k) { k += 8; size_t i = 0; while (k[i] && k[i] != '"' && i < sizeof kind - 1) { kind[i] = k[i]; i++; } kind[i] = 0; }
    if (strncmp(kind, "file", 4) == 0) {
        char text[256];
        read_file(atoi(kind + 4), text, sizeof text);
        snprintf(body, sizeof body, "{\"entries\":[{\"date\":%ld,\"view\":{\"kind\":\"text\",\"text\":\"%s\"}}],\"ok\":true,\"policy\":{\"type\":\"never\"}}", now, text);
        return reply(body, response, response_length);
    }
    if (strcmp(kind, "idle") == 0) {
        snprintf(body, sizeof body, "{\"entries\":[{\"date\":%ld,\"view\":{\"kind\":\"text\",\"text\":\"idle\"}}],\"ok\":true,\"policy\":{\"type\":\"never\"}}", now);
        return reply(body, response, response_length);
    }
    /* clock and tick: 60 one-second entries from this whole second */
    size_t off = (size_t)snprintf(body, sizeof body, "{\"entries\":[");
    for (int i = 0; i < 60; i++) {
        time_t t = (time_t)(now + i);
        struct tm tmv;
        gmtime_r(&t, &tmv);
        char hms[16];
        strftime(hms, sizeof hms, "%H:%M:%S", &tmv);
        off += (size_t)snprintf(body + off, sizeof body - off, "%s{\"date\":%ld,\"view\":{\"kind\":\"text\",\"text\":\"%s %s\"}}",
                                i ? "," : "", (long)t, kind, hms);
    }
    snprintf(body + off, sizeof body - off, "],\"ok\":true,\"policy\":{\"type\":\"atEnd\"}}");
    return reply(body, response, response_length);
}

static void bench_free(uint8_t *buffer) { free(buffer); }

static const widget_plugin_v1 bench_table = {
    .abi_version = WIDGET_PLUGIN_ABI_VERSION,
    .struct_size = sizeof(widget_plugin_v1),
    .bundle_id = "org.widgethost.bench",
    .sdk_version = "",
    .invoke = bench_invoke,
    .free_buffer = bench_free,
};

const widget_plugin_v1 *widget_plugin_entry_v1(void) { return &bench_table; }
