/*
 * A WidgetHost plugin in plain C, written against widget_plugin.h alone: proof that the
 * header and docs/plugin-abi.md are the whole contract. One widget, kind "hello", showing
 * "Hello from C" and the current Unix time, refreshed every minute.
 *
 *   cc -shared -fPIC -I Sources/CWidgetPluginABI/include -o Plugins/hello_widget.so Examples/CPlugin/hello_widget.c
 *
 * Fault variants for tests (never in a real plugin):
 *   -DHELLO_WRONG_ABI   declares ABI version 99
 *   -DHELLO_MALFORMED   answers every request with bytes that are not JSON
 *   -DHELLO_NO_ENTRY    exports no entry symbol
 *   -DHELLO_PRINTS      writes garbage to stdout before every answer
 *   -DHELLO_OLD_SDK     claims to be built with another OpenWidgetKit version
 */
#include "widget_plugin.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static char *copy_string(const char *s, size_t *length) {
    *length = strlen(s);
    char *out = malloc(*length + 1);
    if (out) memcpy(out, s, *length + 1);
    return out;
}

static int32_t hello_invoke(const uint8_t *request, size_t request_length,
                            uint8_t **response, size_t *response_length) {
#ifdef HELLO_PRINTS
    printf("this line goes to stdout and must not corrupt the protocol\n");
    fflush(stdout);
#endif
#ifdef HELLO_MALFORMED
    (void)request; (void)request_length;
    *response = (uint8_t *)copy_string("\x01\x02 this is not json {{{", response_length);
    return *response ? 0 : 1;
#else
    char req[256];
    size_t n = request_length < sizeof req - 1 ? request_length : sizeof req - 1;
    memcpy(req, request, n);
    req[n] = 0;
    char body[1024];
    long now = (long)time(NULL);
    if (strstr(req, "\"op\":\"describe\"")) {
        snprintf(body, sizeof body,
                 "{\"manifest\":{\"abiVersion\":1,\"appGroups\":[],\"bundleId\":\"org.example.hello-c\","
                 "\"sdkVersion\":\"\",\"widgets\":[{\"configuration\":\"StaticConfiguration\","
                 "\"description\":\"A widget written in C.\",\"displayName\":\"Hello C\","
                 "\"families\":[\"accessoryInline\",\"systemSmall\"],\"kind\":\"hello\",\"parameters\":[]}]},"
                 "\"ok\":true}");
    } else if (strstr(req, "\"op\":\"perform\"")) {
        snprintf(body, sizeof body, "{\"ok\":true}");
    } else {
        snprintf(body, sizeof body,
                 "{\"entries\":[{\"date\":%ld,\"view\":{\"children\":["
                 "{\"kind\":\"text\",\"text\":\"Hello from C\"},"
                 "{\"kind\":\"text\",\"text\":\"t=%ld\"}],\"kind\":\"vstack\"}}],"
                 "\"ok\":true,\"policy\":{\"date\":%ld,\"type\":\"after\"}}",
                 now, now, now + 60);
    }
    *response = (uint8_t *)copy_string(body, response_length);
    return *response ? 0 : 1;
#endif
}

static void hello_free(uint8_t *buffer) { free(buffer); }

static const widget_plugin_v1 hello_table = {
#ifdef HELLO_WRONG_ABI
    .abi_version = 99,
#else
    .abi_version = WIDGET_PLUGIN_ABI_VERSION,
#endif
    .struct_size = sizeof(widget_plugin_v1),
    .bundle_id = "org.example.hello-c",
#ifdef HELLO_OLD_SDK
    .sdk_version = "0.0.1-old",
#else
    .sdk_version = "",
#endif
    .invoke = hello_invoke,
    .free_buffer = hello_free,
};

#ifndef HELLO_NO_ENTRY
const widget_plugin_v1 *widget_plugin_entry_v1(void) { return &hello_table; }
#else
const widget_plugin_v1 *some_other_symbol(void) { return &hello_table; }
#endif
