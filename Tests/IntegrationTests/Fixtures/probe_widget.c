/*
 * Fixture plugin for the daemon's integration tests, written against widget_plugin.h alone.
 *
 * One widget, kind "probe" (systemSmall, accessoryInline), app group "group.probe". Its timeline
 * reads the first line of $WIDGETHOST_CONTAINERS/group.probe/value.txt and returns three entries
 * one second apart — "v<version> <value> #0", "#1", "#2" — with the policy .never, so
 * every change after the first load comes from an entry date or a container change.
 *
 *   -DPROBE_VERSION=2   the version shown in the text (default 1)
 *   -DPROBE_STEP=5      seconds between entries (default 1)
 *   -DPROBE_TIMER       two entries: a live timer text, then plain text PROBE_STEP s later
 *   -DPROBE_SYMBOL='"x"' each entry's text after an Image(systemName: "x")
 *   -DPROBE_URL         every entry's widgetURL is the container value (as a hostile plugin
 *                       would choose it: "--help", "https://…")
 *   -DPROBE_BACKGROUND  every entry has a containerBackground (iOS 17 requires one of a
 *                       systemSmall widget; without it the host names the widget)
 *
 * Misbehaviour on demand, driven by the container value: "crash" aborts the worker inside the
 * timeline call, "hang" never answers.
 */
#include "widget_plugin.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#ifndef PROBE_VERSION
#define PROBE_VERSION 1
#endif
#ifndef PROBE_STEP
#define PROBE_STEP 1
#endif
#ifdef PROBE_URL
#define URL_MODIFIER ",\"modifiers\":{\"widgetURL\":\"%s\"}"
#define URL_VALUE , value
#elif defined(PROBE_BACKGROUND)
#define URL_MODIFIER ",\"modifiers\":{\"containerBackground\":{\"rgba\":[0,0,1,1]}}"
#define URL_VALUE
#else
#define URL_MODIFIER ""
#define URL_VALUE
#endif

static char *copy_string(const char *s, size_t *length) {
    *length = strlen(s);
    char *out = malloc(*length + 1);
    if (out) memcpy(out, s, *length + 1);
    return out;
}

static void read_value(char *out, size_t size) {
    snprintf(out, size, "none");
    const char *root = getenv("WIDGETHOST_CONTAINERS");
    if (!root) return;
    char path[4096];
    snprintf(path, sizeof path, "%s/group.probe/value.txt", root);
    FILE *f = fopen(path, "r");
    if (!f) return;
    if (fgets(out, (int)size, f)) {
        out[strcspn(out, "\r\n\"\\")] = 0;
    }
    fclose(f);
}

static int32_t probe_invoke(const uint8_t *request, size_t request_length,
                            uint8_t **response, size_t *response_length) {
    char req[512];
    size_t n = request_length < sizeof req - 1 ? request_length : sizeof req - 1;
    memcpy(req, request, n);
    req[n] = 0;
    char body[4096];
    if (strstr(req, "\"op\":\"describe\"")) {
        snprintf(body, sizeof body,
                 "{\"manifest\":{\"abiVersion\":1,\"appGroups\":[\"group.probe\"],\"bundleId\":\"org.example.probe\","
                 "\"sdkVersion\":\"\",\"widgets\":[{\"configuration\":\"StaticConfiguration\","
                 "\"description\":\"Test probe.\",\"displayName\":\"Probe\","
                 "\"families\":[\"accessoryInline\",\"systemSmall\"],\"kind\":\"probe\",\"parameters\":[]}]},"
                 "\"ok\":true}");
    } else if (strstr(req, "\"op\":\"timeline\"")) {
        char value[256];
        read_value(value, sizeof value);
        if (strcmp(value, "crash") == 0) abort();
        if (strcmp(value, "hang") == 0) for (;;) pause();
        long now = (long)time(NULL);
#ifdef PROBE_TIMER
        /* Entry #0 holds a live timer (Text(now, style: .timer)) that the host ticks by itself. */
        snprintf(body, sizeof body,
                 "{\"entries\":["
                 "{\"date\":%ld,\"view\":{\"kind\":\"hstack\",\"children\":[{\"kind\":\"text\",\"text\":\"v%d %s\"},"
                 "{\"kind\":\"text\",\"date\":{\"style\":\"timer\",\"date\":%ld}}]}},"
                 "{\"date\":%ld,\"view\":{\"kind\":\"text\",\"text\":\"v%d %s #1\"}}],"
                 "\"ok\":true,\"policy\":{\"type\":\"never\"}}",
                 now, PROBE_VERSION, value, now, now + PROBE_STEP, PROBE_VERSION, value);
#elif defined(PROBE_SYMBOL)
        snprintf(body, sizeof body,
                 "{\"entries\":["
                 "{\"date\":%ld,\"view\":{\"kind\":\"hstack\",\"children\":[{\"kind\":\"image\",\"symbol\":\"%s\"},"
                 "{\"kind\":\"text\",\"text\":\"v%d %s #0\"}]}}],"
                 "\"ok\":true,\"policy\":{\"type\":\"never\"}}",
                 now, PROBE_SYMBOL, PROBE_VERSION, value);
#else
        snprintf(body, sizeof body,
                 "{\"entries\":["
                 "{\"date\":%ld,\"view\":{\"kind\":\"text\",\"text\":\"v%d %s #0\"" URL_MODIFIER "}},"
                 "{\"date\":%ld,\"view\":{\"kind\":\"text\",\"text\":\"v%d %s #1\"" URL_MODIFIER "}},"
                 "{\"date\":%ld,\"view\":{\"kind\":\"text\",\"text\":\"v%d %s #2\"" URL_MODIFIER "}}],"
                 "\"ok\":true,\"policy\":{\"type\":\"never\"}}",
                 now, PROBE_VERSION, value URL_VALUE, now + PROBE_STEP, PROBE_VERSION, value URL_VALUE,
                 now + 2 * PROBE_STEP, PROBE_VERSION, value URL_VALUE);
#endif
    } else {
        snprintf(body, sizeof body, "{\"ok\":true}");
    }
    *response = (uint8_t *)copy_string(body, response_length);
    return *response ? 0 : 1;
}

static void probe_free(uint8_t *buffer) { free(buffer); }

static const widget_plugin_v1 probe_table = {
    .abi_version = WIDGET_PLUGIN_ABI_VERSION,
    .struct_size = sizeof(widget_plugin_v1),
    .bundle_id = "org.example.probe",
    .sdk_version = "",
    .invoke = probe_invoke,
    .free_buffer = probe_free,
};

const widget_plugin_v1 *widget_plugin_entry_v1(void) { return &probe_table; }
