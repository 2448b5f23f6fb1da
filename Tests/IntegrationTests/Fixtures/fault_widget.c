/*
 * Fault-injection fixture plugin for the containment tests (FaultInjectionTests.swift, issue 15),
 * written against widget_plugin.h alone. Kind "fault" (systemSmall); its timeline misbehaves as
 * -DFAULT=… says:
 *   0  answers normally: text "fine <pid of the worker>"
 *   1  an entry dated "nan"                 2  an entry dated "-inf"
 *   3  an entry dated 1e300                 4  policy .after("-inf")
 *   5  a gauge whose value is "nan"         6  a frame whose width is "inf"
 *   10 forks a child that sleeps for an hour (holding the worker's pipes), then hangs
 *   11 forks such a child, then answers normally ("forked <child pid>")
 *   20 spams stderr for ever (the host must throttle it), answering first
 * With -DAPP_GROUP="\"group.x\"" the manifest declares that app group.
 */
#include "widget_plugin.h"

#include <signal.h>
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

static pid_t sleeping_child(void) {
    pid_t child = fork();
    if (child == 0) {
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
        return answer(text("{\"manifest\":{\"abiVersion\":1,\"appGroups\":[" GROUPS "],\"bundleId\":\"org.example.fault\","
                           "\"sdkVersion\":\"\",\"widgets\":[{\"configuration\":\"StaticConfiguration\","
                           "\"description\":\"Fault injection.\",\"displayName\":\"Fault\","
                           "\"families\":[\"systemSmall\"],\"kind\":\"fault\",\"parameters\":[]}]},"
                           "\"ok\":true}"), response, response_length);
    }
    if (!strstr(req, "\"op\":\"timeline\"")) return answer(text("{\"ok\":true}"), response, response_length);
    char now[32], view[128];
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
    case 10:
        sleeping_child();
        for (;;) pause();
    case 11:
        snprintf(view, sizeof view, "{\"kind\":\"text\",\"text\":\"forked %ld\"}", (long)sleeping_child());
        return answer(timeline(now, view, "{\"type\":\"atEnd\"}"), response, response_length);
    case 20:
        if (fork() == 0) {
            /* the spammer shares the worker's stderr; it lives as long as the worker's group */
            for (;;) fputs("spam spam spam spam spam spam spam spam spam spam spam spam spam spam\n", stderr);
        }
        break;
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
