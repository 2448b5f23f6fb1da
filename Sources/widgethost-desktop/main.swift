// widgethost-desktop: the configured widgets on the desktop (docs/desktop.md). The lean surface
// (no toolkit) draws the host's view stream; a separate executable so the daemon never links
// a display library.
#if canImport(Glibc)
import Glibc
#endif

exit(DesktopCommand.run(Array(CommandLine.arguments.dropFirst())))
