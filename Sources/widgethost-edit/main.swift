// widgethost-edit: the "Add Widget" gallery and the "Edit Widget" form, in GTK 3, started on
// demand (docs/desktop.md "Edit Widgets"). A separate executable so that neither the daemon nor
// the always-on desktop surface links GTK; it writes config.json only through
// WidgetConfigEditing, as `widgethost add`/`configure`/`remove` do.
#if canImport(Glibc)
import Glibc
#endif

exit(EditCommand.run(Array(CommandLine.arguments.dropFirst())))
