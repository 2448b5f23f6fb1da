// widgethost-desktop: the configured widgets' pictures on the desktop (docs/desktop.md). A reader
// of out/ like `widgethost follow`; a separate executable so the daemon never links GTK.
#if canImport(Glibc)
import Glibc
#endif

exit(DesktopCommand.run(Array(CommandLine.arguments.dropFirst())))
