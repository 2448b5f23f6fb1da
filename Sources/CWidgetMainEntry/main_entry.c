#define _GNU_SOURCE
#include "widget_main_entry.h"
#include <dlfcn.h>
#include <stddef.h>

/* The `main` `@main` emits in the plugin, if any. Weak: a plugin without `@main` links too. */
extern int main(int argc, char **argv) __attribute__((weak));

/* True when `main` is defined in the same object as this code (the plugin's .so), not the
 * loading executable's own `main` (which a -Bsymbolic-free lookup could find). */
static int own_main_exists(void) {
    if (main == NULL) return 0;
    Dl_info mine, theirs;
    if (dladdr((void *)&owk_entry_through_main, &mine) == 0) return 0;
    if (dladdr((void *)main, &theirs) == 0) return 0;
    return mine.dli_fbase == theirs.dli_fbase;
}

const void *owk_entry_through_main(void) {
    const void *table = owk_registered_plugin_table();
    if (table != NULL) return table;
    if (!own_main_exists()) return NULL;
    static char name[] = "widget-plugin";
    char *argv[] = { name, NULL };
    main(1, argv);
    return owk_registered_plugin_table();
}

/* The plugin's entry point when the plugin does not define one. */
__attribute__((weak, visibility("default"))) const void *widget_plugin_entry_v1(void) {
    return owk_entry_through_main();
}
