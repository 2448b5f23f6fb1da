/*
 * Fixture plugins for the limits tests (HostileTests.swift), written against widget_plugin.h alone.
 *
 * -DTICKER: a well-behaved widget, kind "ticker" (systemSmall): 40 entries one second apart at
 *   whole seconds, text "t<version> <epoch second>", policy .atEnd — the tests measure how late
 *   each entry reaches out/ticker-systemSmall.json.
 * Otherwise kind "hostile" (systemSmall), whose timeline misbehaves as -DMODE=… says:
 *   1 hang, 2 segfault, 3 abort, 4 allocate until killed, 5 one million entries,
 *   6 a 100 MB tree, 7 spam stdout (then answer), 8 malformed bytes, 9 wrong ABI version (table),
 *   10 segfault in describe, 11 a new tree every second (10 entries, reloaded at their end),
 *   each 63 levels of shadowed stacks holding 60 shadowed texts each, in systemExtraLarge too
 *   (the picture tests, PictureOutputTests.swift: a picture that takes seconds to draw).
 * -DEVERY_OP: placeholder and snapshot answer (and misbehave) like timeline, not with a bare
 *   {"ok":true} (the `validate` tests, ValidateTests.swift).
 * -DSDK_VERSION='"x.y.z"': the SDK version the table declares (default "": none, as C plugins).
 */
#include "widget_plugin.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#ifndef MODE
#define MODE 0
#endif
#ifndef VERSION
#define VERSION 1
#endif
#ifndef SDK_VERSION
#define SDK_VERSION ""
#endif
#if MODE == 11
#define FAMILIES "\"systemSmall\",\"systemExtraLarge\""
#else
#define FAMILIES "\"systemSmall\""
#endif
#ifdef TICKER
#define KIND "ticker"
#define BUNDLE "org.example.ticker"
#else
#define KIND "hostile"
#define BUNDLE "org.example.hostile"
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

static int32_t fixture_invoke(const uint8_t *request, size_t request_length,
                              uint8_t **response, size_t *response_length) {
    char req[512];
    size_t n = request_length < sizeof req - 1 ? request_length : sizeof req - 1;
    memcpy(req, request, n);
    req[n] = 0;
    if (strstr(req, "\"op\":\"describe\"")) {
#if MODE == 10
        raise(SIGSEGV);
#endif
        return answer(text("{\"manifest\":{\"abiVersion\":1,\"appGroups\":[],\"bundleId\":\"" BUNDLE "\","
                           "\"sdkVersion\":\"\",\"widgets\":[{\"configuration\":\"StaticConfiguration\","
                           "\"description\":\"Fixture.\",\"displayName\":\"Fixture\","
                           "\"families\":[" FAMILIES "],\"kind\":\"" KIND "\",\"parameters\":[]}]},"
                           "\"ok\":true}"), response, response_length);
    }
#ifndef EVERY_OP
    if (!strstr(req, "\"op\":\"timeline\"")) return answer(text("{\"ok\":true}"), response, response_length);
#endif
    long now = (long)time(NULL);
#ifdef TICKER
    size_t cap = 40 * 96 + 128;
    char *body = malloc(cap);
    size_t off = (size_t)snprintf(body, cap, "{\"entries\":[");
    for (int i = 0; i < 40; i++)
        off += (size_t)snprintf(body + off, cap - off, "%s{\"date\":%ld,\"view\":{\"kind\":\"text\",\"text\":\"t%d %ld\"}}",
                                i ? "," : "", now + i, VERSION, now + i);
    snprintf(body + off, cap - off, "],\"ok\":true,\"policy\":{\"type\":\"atEnd\"}}");
    return answer(body, response, response_length);
#else
    switch (MODE) {
    case 1: for (;;) pause();
    case 2: { volatile int *p = NULL; *p = 1; break; }
    case 3: abort();
    case 4:
        for (;;) {
            char *p = malloc(1 << 20);
            if (!p) abort();
            memset(p, 1, 1 << 20);
        }
    case 5: {
        size_t cap = (size_t)1000000 * 64 + 128;
        char *body = malloc(cap);
        if (!body) abort();
        size_t off = (size_t)snprintf(body, cap, "{\"entries\":[");
        for (int i = 0; i < 1000000; i++)
            off += (size_t)snprintf(body + off, cap - off, "%s{\"date\":%ld,\"view\":{\"kind\":\"text\",\"text\":\"%d\"}}",
                                    i ? "," : "", now + i, i);
        snprintf(body + off, cap - off, "],\"ok\":true,\"policy\":{\"type\":\"never\"}}");
        return answer(body, response, response_length);
    }
    case 6: {
        size_t big = (size_t)100 << 20;
        char *body = malloc(big + 256);
        if (!body) abort();
        size_t off = (size_t)sprintf(body, "{\"entries\":[{\"date\":%ld,\"view\":{\"kind\":\"text\",\"text\":\"", now);
        memset(body + off, 'x', big);
        strcpy(body + off + big, "\"}}],\"ok\":true,\"policy\":{\"type\":\"never\"}}");
        return answer(body, response, response_length);
    }
    case 7: {
        for (int i = 0; i < 20000; i++) printf("spam spam spam spam spam spam spam spam spam spam %d\n", i);
        fflush(stdout);
        char body[256];
        snprintf(body, sizeof body, "{\"entries\":[{\"date\":%ld,\"view\":{\"kind\":\"text\",\"text\":\"spammed\"}}],"
                 "\"ok\":true,\"policy\":{\"type\":\"never\"}}", now);
        return answer(text(body), response, response_length);
    }
    case 8: return answer(text("\xff\xfe{\"entries\":[{\"date\":\"yesterday\",\x01\x02 garbage"), response, response_length);
    case 11: {
        /* 63 nested shadowed stacks, each with 60 shadowed texts beside the next level: about
           3 800 shadows, each a canvas-sized group laid down ten times. */
        static const char open[] = "{\"children\":[";
        static const char leaf[] = ",{\"kind\":\"text\",\"modifiers\":{\"other\":{\"shadow\":{\"radius\":20,\"x\":3,\"y\":3}}},\"text\":\"x\"}";
        static const char close[] = "],\"kind\":\"zstack\",\"modifiers\":{\"other\":{\"shadow\":{\"radius\":20,\"x\":3,\"y\":3}}}}";
        enum { ENTRIES = 10, DEPTH = 63, LEAVES = 60 };
        size_t cap = ENTRIES * (DEPTH * (sizeof open + LEAVES * sizeof leaf + sizeof close) + 128) + 128;
        char *body = malloc(cap);
        if (!body) abort();
        size_t off = (size_t)snprintf(body, cap, "{\"entries\":[");
        for (int i = 0; i < ENTRIES; i++) {
            off += (size_t)snprintf(body + off, cap - off, "%s{\"date\":%ld,\"view\":", i ? "," : "", now + i);
            for (int d = 0; d < DEPTH; d++) off += (size_t)snprintf(body + off, cap - off, "%s", open);
            off += (size_t)snprintf(body + off, cap - off, "{\"kind\":\"text\",\"text\":\"h%ld\"}", now + i);
            for (int d = 0; d < DEPTH; d++) {
                for (int l = 0; l < LEAVES; l++) off += (size_t)snprintf(body + off, cap - off, "%s", leaf);
                off += (size_t)snprintf(body + off, cap - off, "%s", close);
            }
            off += (size_t)snprintf(body + off, cap - off, "}");
        }
        snprintf(body + off, cap - off, "],\"ok\":true,\"policy\":{\"type\":\"atEnd\"}}");
        return answer(body, response, response_length);
    }
    default: break;
    }
    char body[256];
    snprintf(body, sizeof body, "{\"entries\":[{\"date\":%ld,\"view\":{\"kind\":\"text\",\"text\":\"fine\"}}],"
             "\"ok\":true,\"policy\":{\"type\":\"never\"}}", now);
    return answer(text(body), response, response_length);
#endif
}

static void fixture_free(uint8_t *buffer) { free(buffer); }

static const widget_plugin_v1 fixture_table = {
#if MODE == 9
    .abi_version = WIDGET_PLUGIN_ABI_VERSION + 1,
#else
    .abi_version = WIDGET_PLUGIN_ABI_VERSION,
#endif
    .struct_size = sizeof(widget_plugin_v1),
    .bundle_id = BUNDLE,
    .sdk_version = SDK_VERSION,
    .invoke = fixture_invoke,
    .free_buffer = fixture_free,
};

const widget_plugin_v1 *widget_plugin_entry_v1(void) { return &fixture_table; }
