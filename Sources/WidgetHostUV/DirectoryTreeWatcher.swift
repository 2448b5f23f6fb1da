import WidgetHostCore

/// Watches a directory and every directory below it (inotify is not recursive: one
/// `UVFileWatcher` per directory). A new subdirectory gets its own watch when it appears; a
/// vanished one loses it. `onChange(path)` runs for every event with the path that changed,
/// except entries whose name `ignoring` accepts (writers' temp files: nothing is looked up for
/// them). Loop thread only.
public final class DirectoryTreeWatcher {
    public let root: String
    private let loop: UVLoop
    private var watchers: [String: UVFileWatcher] = [:]
    private var onChange: (String) -> Void
    private let ignoring: (String) -> Bool

    public init(loop: UVLoop, root: String, ignoring: @escaping (_ name: String) -> Bool = { _ in false },
                onChange: @escaping (String) -> Void) {
        self.loop = loop
        self.root = root
        self.ignoring = ignoring
        self.onChange = onChange
        addTree(root)
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
        }
        for (p, w) in watchers where !FileIO.isDirectory(p) {
            w.close(); watchers[p] = nil
        }
        if watchers[root] == nil { addTree(root) }
        onChange(path)
    }

    public func close() {
        for w in watchers.values { w.close() }
        watchers = [:]
        onChange = { _ in }
    }
}
