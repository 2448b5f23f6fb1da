// widgethost-desktop-gtk: the configured widgets' pictures on the desktop through GTK, as
// `widgethost-desktop --gtk` runs it (docs/desktop.md). A reader of out/ like `widgethost follow`;
// a separate executable so that widgethost-desktop links no GTK.
#if canImport(Glibc)
import Glibc
#endif

exit(GtkDesktopCommand.run(Array(CommandLine.arguments.dropFirst())))
