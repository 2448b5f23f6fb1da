import CLibUV
import WidgetHostCore
#if canImport(Glibc)
import Glibc
#endif

/// Watches a directory and every directory below it on an inotify descriptor of its own, read
/// under a `UVPoll` (inotify is not recursive: one watch per directory). A new subdirectory gets
/// its watch when its event is read (`IN_ISDIR` says so: no `stat`); a vanished one loses it.
/// `onChange(path)` runs for every event with the path that changed, except entries whose name
/// `ignoring` accepts (nothing is reported for them).
///
/// The root itself may go: removed, moved away, replaced by a file. Its parent directory is
/// watched too (same descriptor), so when a folder of that name is back the tree is watched again
/// at once; `onRootPresence(false)` runs when the root is lost, `onRootPresence(true)` when it is
/// back (followed by `onChange(root)`: its content may be new). `onOverflow` runs (before that
/// report) when the kernel's queue overflowed.
///
/// With `fileRoot`, the root may also be a single file (a calendar's `.ics`; a container
/// replaced by a file is lost, as before): the file itself is watched for
/// writes in place, and the parent's events filtered to its name say when it is created,
/// removed or replaced (an editor's write to a temp file renamed over it, which the file's own
/// watch cannot see: that names the old file). A replaced file runs `onRootReplaced()` (a
/// sandbox that bound the old file must bind the new one), then `onChange(root)`; it is
/// watched again under its new inode. A file removed: `onRootPresence(false)`, then
/// `onRootReplaced()` and `onChange(root)` too (what was read from it goes). The parent's
/// other entries cost no report.
///
/// Why not libuv's `uv_fs_event`: it cannot stop reading a watch without losing its events, and
/// it drops the kernel's queue overflow silently. This watcher is a `HoldableEventSource`: held,
/// it reads nothing and the kernel keeps the events (merging repeats); `drain()` reads them all
/// at once. When the kernel's queue overflowed (`IN_Q_OVERFLOW`: events were lost), every watch is
/// set up afresh from the tree as it is and the root is reported changed: everything may have.
///
/// nil when no inotify descriptor can be had (`fs.inotify.max_user_instances` reached). Loop
/// thread only.
public final class DirectoryTreeWatcher: HoldableEventSource {
    public let root: String
    private let rootName: String
    private let parent: String
    private let fd: Int32
    private var poll: UVPoll?
    /// Watched directories: descriptor → path, path → descriptor.
    private var paths: [Int32: String] = [:]
    private var descriptors: [String: Int32] = [:]
    private var parentDescriptor: Int32 = -1
    private var onChange: (String) -> Void
    private var onRootPresence: (Bool) -> Void
    private var onOverflow: () -> Void
    private var onRootReplaced: () -> Void
    /// The root is a file (watched with `fileMask`), not a folder.
    private var rootIsFile = false
    /// Whether a regular file at `root` is watched as the root (else only a folder is).
    private let fileRoot: Bool
    private let ignoring: (String) -> Bool
    private let buffer: UnsafeMutableRawPointer
    private static let bufferSize = 64 * 1024
    private var held = false
    /// Whether the root is a watched folder now.
    public private(set) var rootPresent = false
    /// Kernel queue overflows seen (for tests and status).
    public private(set) var overflows = 0

    private static let treeMask = UInt32(IN_ATTRIB | IN_CREATE | IN_MODIFY | IN_DELETE | IN_DELETE_SELF | IN_MOVE_SELF
                                         | IN_MOVED_FROM | IN_MOVED_TO | IN_ONLYDIR)
    private static let fileMask = UInt32(IN_ATTRIB | IN_MODIFY | IN_CLOSE_WRITE | IN_DELETE_SELF | IN_MOVE_SELF)
    /// Parent events that say the root's name now names another file, or none.
    private static let nameMask = UInt32(IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO)
    private static let parentMask = UInt32(IN_ATTRIB | IN_CREATE | IN_DELETE | IN_DELETE_SELF | IN_MOVE_SELF
                                           | IN_MOVED_FROM | IN_MOVED_TO | IN_ONLYDIR)

    public init?(loop: UVLoop, root: String, fileRoot: Bool = false, ignoring: @escaping (_ name: String) -> Bool = { _ in false },
                 onRootPresence: @escaping (_ present: Bool) -> Void = { _ in },
                 onOverflow: @escaping () -> Void = {},
                 onRootReplaced: @escaping () -> Void = {},
                 onChange: @escaping (String) -> Void) {
        fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { return nil }
        self.root = root
        rootName = root.lastPathComponent
        parent = root.deletingLastPathComponent
        self.ignoring = ignoring
        self.onChange = onChange
        self.onRootPresence = onRootPresence
        self.onOverflow = onOverflow
        self.onRootReplaced = onRootReplaced
        self.fileRoot = fileRoot
        buffer = .allocate(byteCount: Self.bufferSize, alignment: 8)
        guard let poll = UVPoll(loop: loop, fd: fd, { [weak self] _ in self?.readEvents() }) else {
            Glibc.close(fd); buffer.deallocate(); return nil
        }
        self.poll = poll
        parentDescriptor = inotify_add_watch(fd, parent, Self.parentMask)
        addRoot()
        rootPresent = descriptors[root] != nil
        if !rootPresent { onRootPresence(false) }
    }

    /// Directories watched (for tests and status).
    public var watchedDirectories: [String] { descriptors.keys.sorted() }

    // MARK: HoldableEventSource

    public func hold() {
        guard !held else { return }
        held = true
        poll?.pause()
    }

    public func drain() { readEvents() }

    public func resume() {
        guard held else { return }
        held = false
        poll?.resume()
    }

    // MARK: Events

    /// Reads every queued event (until the descriptor is empty) and acts on them in order.
    private func readEvents() {
        guard poll != nil else { return }
        var changed: [String] = []
        var checkRoot = false, rootLost = false, overflowed = false, replaced = false
        while true {
            let n = Glibc.read(fd, buffer, Self.bufferSize)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { break }
            var offset = 0
            let header = 16  // struct inotify_event: wd, mask, cookie, len; then the name
            while offset + header <= n {
                let wd = buffer.loadUnaligned(fromByteOffset: offset, as: Int32.self)
                let mask = buffer.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
                let length = Int(buffer.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                let nameStart = buffer.advanced(by: offset + header).assumingMemoryBound(to: CChar.self)
                let name = length > 0 ? String(cString: nameStart) : ""
                offset += header + length
                if mask & UInt32(IN_Q_OVERFLOW) != 0 { overflowed = true; continue }
                if wd == parentDescriptor {
                    if mask & UInt32(IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED) != 0 {
                        if mask & UInt32(IN_IGNORED) != 0 { parentDescriptor = -1 }
                        checkRoot = true
                    } else if name == rootName {
                        checkRoot = true
                        if mask & Self.nameMask != 0 { replaced = true }
                    }
                    continue
                }
                guard let dir = paths[wd] else { continue }  // a watch removed meanwhile
                if rootIsFile && dir == root {
                    // The file itself: written in place, or gone from its path (the parent's
                    // event says whether another file took its name).
                    if mask & UInt32(IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED) != 0 {
                        removeTree(root); checkRoot = true; replaced = true
                    } else if changed.last != root { changed.append(root) }
                    continue
                }
                if mask & UInt32(IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED) != 0 {
                    // This folder is gone from its path (its parent's event follows or came).
                    removeTree(dir)
                    if dir == root { rootLost = true; checkRoot = true }
                    continue
                }
                guard !name.isEmpty else { continue }
                let path = dir + "/" + name
                if mask & UInt32(IN_ISDIR) != 0 {
                    if mask & UInt32(IN_DELETE | IN_MOVED_FROM) != 0 { removeTree(path) } else { addTree(path) }
                    changed.append(path)
                    continue
                }
                if ignoring(name) { continue }
                if changed.last != path { changed.append(path) }
            }
        }
        if overflowed {
            overflows += 1
            onOverflow()
            rewatch()
            changed = [root]
            checkRoot = true
        }
        if checkRoot { self.checkRoot(lost: rootLost, replaced: replaced) }
        guard rootPresent else { return }  // a lost root is reported by onRootPresence alone
        for path in changed { onChange(path) }
    }

    /// Re-reads whether the root is there: lost → its watches go; back → watched again.
    /// `lost`: the root's own watch ended (removed or moved, maybe replaced already).
    /// `replaced`: a file root's name was created, removed or renamed over.
    private func checkRoot(lost: Bool, replaced: Bool) {
        if parentDescriptor < 0 { parentDescriptor = inotify_add_watch(fd, parent, Self.parentMask) }
        if lost && rootPresent {
            rootPresent = false
            onRootPresence(false)
        }
        let wasFile = rootIsFile
        // A file root whose name changed hands is watched afresh: its watch names the old file.
        if rootIsFile && (replaced || FileIO.size(root) == nil) { removeTree(root) }
        if !rootIsFile && !FileIO.isDirectory(root) { removeTree(root) }
        if descriptors[root] == nil { addRoot() }
        let now = descriptors[root] != nil
        guard now != rootPresent else {
            if now && rootIsFile && replaced {
                onRootReplaced()
                onChange(root)
            }
            return
        }
        rootPresent = now
        onRootPresence(now)
        if now { onChange(root) } else if wasFile {
            // A file is gone: what was read from it goes too (a sandbox holds the old file).
            onRootReplaced()
            onChange(root)
        }
    }

    /// Watches the root: a folder's tree, or a regular file alone; nothing when it is neither.
    private func addRoot() {
        if FileIO.isDirectory(root) {
            rootIsFile = false
            addTree(root)
        } else if fileRoot, FileIO.size(root) != nil {
            let wd = inotify_add_watch(fd, root, Self.fileMask)
            guard wd >= 0 else { return }
            rootIsFile = true
            paths[wd] = root
            descriptors[root] = wd
        }
    }

    /// Every watch set up afresh from the tree as it is now (after events were lost).
    private func rewatch() {
        for wd in paths.keys { inotify_rm_watch(fd, wd) }
        paths = [:]
        descriptors = [:]
        if parentDescriptor >= 0 { inotify_rm_watch(fd, parentDescriptor) }
        parentDescriptor = inotify_add_watch(fd, parent, Self.parentMask)
        addRoot()
    }

    private func addTree(_ dir: String) {
        guard descriptors[dir] == nil else { return }
        let wd = inotify_add_watch(fd, dir, Self.treeMask)
        // The same folder under a second path (a symbolic link to a watched folder, a loop):
        // watched once, under its first path.
        guard wd >= 0, paths[wd] == nil else { return }
        paths[wd] = dir
        descriptors[dir] = wd
        for name in FileIO.list(dir) ?? [] where FileIO.isDirectory(dir + "/" + name) { addTree(dir + "/" + name) }
    }

    /// Stops watching `dir` and every watched folder below it.
    private func removeTree(_ dir: String) {
        let prefix = dir + "/"
        for (path, wd) in descriptors where path == dir || path.hasPrefix(prefix) {
            inotify_rm_watch(fd, wd)
            descriptors[path] = nil
            paths[wd] = nil
        }
    }

    public func close() {
        guard let poll else { return }
        self.poll = nil
        onChange = { _ in }
        onRootPresence = { _ in }
        onOverflow = {}
        onRootReplaced = {}
        paths = [:]
        descriptors = [:]
        let fd = self.fd, buffer = self.buffer
        poll.close { Glibc.close(fd); buffer.deallocate() }
    }
}
