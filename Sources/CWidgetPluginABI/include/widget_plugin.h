/*
 * widget_plugin.h — the WidgetHost plugin boundary, version 1.
 *
 * A widget bundle is a shared object that exports one symbol,
 *
 *     const widget_plugin_v1 *widget_plugin_entry_v1(void);
 *
 * returning a table that stays valid for the life of the process. The worker
 * process (never the host) dlopen()s the bundle, calls the entry once, checks
 * `abi_version == WIDGET_PLUGIN_ABI_VERSION` and `struct_size >= sizeof(widget_plugin_v1)`
 * before it calls anything else, and then calls `invoke` once per request.
 *
 * Requests and responses are UTF-8 JSON documents (schema: docs/plugin-abi.md).
 * `invoke` allocates the response; the worker hands it back through `free_buffer`.
 * `invoke` returns 0 when it produced a response document (which may itself carry
 * {"ok":false,"error":...}), non-zero when it could not produce one at all.
 *
 * Threading: the worker calls `invoke` from one thread at a time, never concurrently.
 * The table is append-only: later versions add fields at the end and raise
 * `struct_size`; a field is never removed or reordered.
 */
#ifndef WIDGET_PLUGIN_H
#define WIDGET_PLUGIN_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define WIDGET_PLUGIN_ABI_VERSION 1u
#define WIDGET_PLUGIN_ENTRY_SYMBOL "widget_plugin_entry_v1"

typedef struct widget_plugin_v1 {
    /** Must be WIDGET_PLUGIN_ABI_VERSION. */
    uint32_t abi_version;
    /** sizeof(widget_plugin_v1) as the plugin was compiled. */
    uint32_t struct_size;
    /** Reverse-DNS bundle identifier, NUL-terminated, static storage. */
    const char *bundle_id;
    /** Version of the SDK the plugin was built with ("" for SDK-less plugins). */
    const char *sdk_version;
    /** Answers one request. `*response` receives a buffer to release with free_buffer. */
    int32_t (*invoke)(const uint8_t *request, size_t request_length,
                      uint8_t **response, size_t *response_length);
    /** Releases a buffer returned by invoke. */
    void (*free_buffer)(uint8_t *buffer);
} widget_plugin_v1;

typedef const widget_plugin_v1 *(*widget_plugin_entry_fn)(void);

#ifdef __cplusplus
}
#endif

#endif /* WIDGET_PLUGIN_H */
