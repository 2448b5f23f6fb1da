import WidgetHostCore

/// Watches a directory and every directory below it (inotify is not recursive: one
/// `UVFileWatcher` per directory). A new subdirectory gets its own watch when it appears; a
/// vanished one loses it. `onChange(path)` runs for every event with the path that changed,
/// except entries whose name `ignoring` accepts (writers' temp files: nothing is looked up for
/// them).
///
/// The root itself may go: removed, moved away, replaced by a file. Its parent directory is
/// watched too, so when a folder of that name is back the tree is watched again at once;
/// `onRootPresence(false)` runs when the root is lost, `onRootPresence(true)` when it is back
/// (followed by `onChange(root)`: its content may be new). Loop thread only.
public final class DirectoryTreeWatcher {
    public let root: String
    private let loop: UVLoop
    private var watchers: [String: UVFileWatcher] = [:]
    private var parentWatcher: UVFileWatcher?
    private var onChange: (String) -> Void
    private var onRootPresence: (Bool) -> Void
    private let ignoring: (String) -> Bool
    /// Whether the root is a watched folder now.
    public private(set) var rootPresent = false

    public init(loop: UVLoop, root: String, ignoring: @escaping (_ name: String) -> Bool = { _ in false },
                onRootPresence: @escaping (_ present: Bool) -> Void = { _ in },
                onChange: @escaping (String) -> Void) {
        self.loop = loop
        self.root = root
        self.ignoring = ignoring
        self.onChange = onChange
        self.onRootPresence = onRootPresence
        let name = root.lastPathComponent
        parentWatcher = UVFileWatcher(loop: loop, path: root.deletingLastPathComponent) { [weak self] changed, _, _ in
            guard let self, changed == nil || changed == name else { return }
            self.checkRoot()
        }
        addTree(root)
        rootPresent = watchers[root] != nil
        if !rootPresent { onRootPresence(false) }
    }

    /// Re-reads whether the root is there: lost → its watches go; back → watched again.
    private func checkRoot() {
        let present = FileIO.isDirectory(root)
        if !present {
            for (p, w) in watchers where !FileIO.isDirectory(p) { w.close(); watchers[p] = nil }
        } else if watchers[root] == nil {
            addTree(root)
        }
        let now = watchers[root] != nil
        guard now != rootPresent else { return }
        rootPresent = now
        onRootPresence(now)
        if now { onChange(root) }
    }

    /// Directories watched (for tests and status).
    public var watchedDirectories: [String] { watchers.keys.sorted() }

    private func addTree(_ dir: String) {
        guard watchers[dir] == nil, FileIO.isDirectory(dir) else { return }
        guard let w = UVFileWatcher(loop: loop, path: dir, { [weak self] name, renamed, status in
            self?.event(in: dir, name: name, renamed: renamed, status: status)
        }) else { return }
        watchers[dir] = w
        for name in FileIO.list(dir) ?? [] where FileIO.isDirectory(dir + "/" + name) { addTree(dir + "/" + name) }
    }

    private func event(in dir: String, name: String?, renamed: Bool, status: Int32) {
        if let name, status == 0, ignoring(name) { return }
        let path = name.map { dir + "/" + $0 } ?? dir
        // A write inside a file adds and removes no directory: no stat per event of a burst.
        guard renamed || status != 0 else { onChange(path); return }
        if FileIO.isDirectory(path) {
            addTree(path)  // new subdirectory (no-op when watched already)
            onChange(path)
            return
        }
        // A file renamed or removed inside a present folder (a writer's temp + rename: W1r's
        // bursts) leaves every watched folder as it was: nothing more to stat. libuv names a
        // watched folder's own events (removed, moved) by its base name, so those, and a
        // watched folder going, take the full check.
        if status == 0, let name, name != dir.lastPathComponent, !isWatched(orAbove: path) {
            onChange(path)
            return
        }
        for (p, w) in watchers where !FileIO.isDirectory(p) {
            w.close(); watchers[p] = nil
        }
        checkRoot()
        if rootPresent { onChange(path) }  // a lost root is reported by onRootPresence alone
    }

    /// Whether `path` is a watched folder or holds one.
    private func isWatched(orAbove path: String) -> Bool {
        if watchers[path] != nil { return true }
        let prefix = path + "/"
        return watchers.keys.contains { $0.hasPrefix(prefix) }
    }

    public func close() {
        for w in watchers.values { w.close() }
        watchers = [:]
        parentWatcher?.close(); parentWatcher = nil
        onChange = { _ in }
        onRootPresence = { _ in }
    }
}
