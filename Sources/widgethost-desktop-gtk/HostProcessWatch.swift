import CGtk
import WidgetHostCore
#if canImport(Glibc)
import Glibc
#endif

/// Whether the host that writes the output directory runs (`HostPresence`): a pidfd on the pid
/// in `out/.widgethost.pid` under the GLib main loop, so a host that crashes or stops is seen at
/// once, with no polling. `rearm()` after the file changes. Main thread (GTK) only.
final class HostProcessWatch {
    private let directory: String
    private let changed: (Bool) -> Void
    private var fd: Int32 = -1
    private var source: guint = 0
    private var known: Bool?
    var running: Bool { known ?? false }

    /// `changed(running)` is called with the first state and on every change.
    init(directory: String, changed: @escaping (Bool) -> Void) {
        self.directory = directory
        self.changed = changed
        rearm()
    }

    deinit { disarm() }

    /// Reads the presence file again and watches the process it names.
    func rearm() {
        disarm()
        var now = false
        if let r = HostPresence.read(in: directory), HostPresence.isRunning(r) {
            fd = widgethost_desktop_pidfd_open(r.pid)
            if fd >= 0 {
                now = true
                let callback: GUnixFDSourceFunc = { _, _, data in
                    guard let data else { return 0 }
                    Unmanaged<HostProcessWatch>.fromOpaque(data).takeUnretainedValue().ended()
                    return 0   // G_SOURCE_REMOVE: a pidfd stays readable
                }
                source = g_unix_fd_add(fd, G_IO_IN, callback, Unmanaged.passUnretained(self).toOpaque())
            }
        }
        set(now)
    }

    private func ended() {
        source = 0
        if fd >= 0 { close(fd); fd = -1 }
        set(false)
    }

    private func disarm() {
        if source != 0 { g_source_remove(source); source = 0 }
        if fd >= 0 { close(fd); fd = -1 }
    }

    private func set(_ value: Bool) {
        guard value != known else { return }
        known = value
        changed(value)
    }
}
