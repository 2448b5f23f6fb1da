import CLibUV

/// `uv_fs_event` on one path (inotify): `callback(name, renamed, status)` with the entry that
/// changed inside a watched directory (nil when libuv gives none), whether an entry may have
/// appeared or vanished (`UV_RENAME`: create, delete, move; false for a write or an attribute
/// change), or an error status. Not recursive, and no create/delete distinction: stat the path to
/// learn what happened (DESIGN §10). Loop thread only.
public final class UVFileWatcher: UVHandle {
    public let path: String
    private var callback: (String?, Bool, Int32) -> Void

    /// nil when the path cannot be watched (missing, no permission).
    public init?(loop: UVLoop, path: String, _ callback: @escaping (_ name: String?, _ renamed: Bool, _ status: Int32) -> Void) {
        self.path = path
        self.callback = callback
        super.init(size: MemoryLayout<uv_fs_event_t>.size)
        let e = memory.assumingMemoryBound(to: uv_fs_event_t.self)
        guard uv_fs_event_init(loop.raw, e) == 0 else { discardUnattached(); return nil }
        attach()
        let rc = uv_fs_event_start(e, { h, name, events, status in
            UVHandle.object(h, as: UVFileWatcher.self)?.callback(name.map { String(cString: $0) },
                                                                 events & Int32(UV_RENAME.rawValue) != 0, status)
        }, path, 0)
        if rc != 0 { close(); return nil }
    }

    public override func didClose() { callback = { _, _, _ in } }
}
