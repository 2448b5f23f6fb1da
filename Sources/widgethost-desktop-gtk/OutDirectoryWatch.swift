import CGtk
#if canImport(Glibc)
import Glibc
#endif

/// Tells which entries of the output directory changed, from inotify under the GLib main loop:
/// a rename into place (how the host writes every file), a close after writing, a removal. No
/// polling. Main thread (GTK) only; lives as long as its owner keeps it.
final class OutDirectoryWatch {
    private let fd: Int32
    private var source: guint = 0
    private let changed: (String) -> Void

    /// nil (with `errno` set) when the directory cannot be watched.
    init?(directory: String, changed: @escaping (String) -> Void) {
        self.changed = changed
        fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { return nil }
        let mask = UInt32(IN_MOVED_TO | IN_CLOSE_WRITE | IN_DELETE | IN_MOVED_FROM | IN_CREATE)
        guard inotify_add_watch(fd, directory, mask) >= 0 else { close(fd); return nil }
        let callback: GUnixFDSourceFunc = { _, _, data in
            guard let data else { return 0 }
            Unmanaged<OutDirectoryWatch>.fromOpaque(data).takeUnretainedValue().drain()
            return 1
        }
        source = g_unix_fd_add(fd, G_IO_IN, callback, Unmanaged.passUnretained(self).toOpaque())
    }

    deinit {
        if source != 0 { g_source_remove(source) }
        close(fd)
    }

    /// Reads every pending event and reports each name once, in order.
    private func drain() {
        var names: [String] = []
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            var offset = 0
            let header = MemoryLayout<inotify_event>.size
            while offset + header <= n {
                let len = buffer.withUnsafeBytes { Int($0.load(fromByteOffset: offset + 12, as: UInt32.self)) }
                let start = offset + header
                let end = min(n, start + len)
                let raw = buffer[start..<end].prefix { $0 != 0 }
                let name = String(decoding: raw, as: UTF8.self)
                if !name.isEmpty && !names.contains(name) { names.append(name) }
                offset = start + len
            }
        }
        for name in names { changed(name) }
    }
}
