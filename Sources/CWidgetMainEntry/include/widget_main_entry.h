/*
 * widget_main_entry.h — how a plugin whose bundle is marked `@main` reaches its entry point.
 *
 * `@main struct MyBundle: WidgetBundle` makes the compiler emit a C `main` symbol in the
 * plugin's .so that calls `MyBundle.main()`; the SDK's `main()` registers the type. Nothing
 * runs a shared library's `main`, so the SDK ships a WEAK `widget_plugin_entry_v1` (this
 * target) that calls the plugin's own `main` once and returns the table the registered type
 * built. A plugin that defines the symbol itself (the explicit `@_cdecl` line, or a C plugin)
 * overrides the weak one at link time.
 *
 * Threading: the worker calls the entry once, from one thread, before any other call.
 */
#ifndef WIDGET_MAIN_ENTRY_H
#define WIDGET_MAIN_ENTRY_H

/** The table registered by a `@main` type's `main()`, or NULL. Defined by OpenWidgetKit. */
const void *owk_registered_plugin_table(void);

/** Runs this shared object's own `main` (if it has one) once, then returns
 *  `owk_registered_plugin_table()`. NULL when the object has no `@main` type. */
const void *owk_entry_through_main(void);

/** Calls `each(function, context)` for every function this shared object exports under a name
 *  starting with `owk_preview_` (the `#Preview` macro's expansions), in symbol-table order.
 *  Reads the object's own ELF file (`.dynsym`); does nothing when it cannot. */
void owk_each_preview_function(void *context, void (*each)(void *function, void *context));

/** The UTF-8 JSON document of this shared object's compiled resources (`owk_bundle_resources_v1`,
 *  which the WidgetBundleSupport build plugin generates), its length in `*count`; NULL and 0
 *  when the object has none. The bytes are static. */
const void *owk_own_bundle_resources(long *count);

#endif
