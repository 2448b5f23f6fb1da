import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// A `.so` in the plugin folder and the identity of its current contents (device, inode, size,
/// modification time): a replacement by rename or an in-place copy changes it. Value type.
public struct PluginFile: Equatable, Hashable, Sendable {
    public var path: String
    public var fingerprint: String
    public init(path: String, fingerprint: String) { self.path = path; self.fingerprint = fingerprint }

    /// The file name, which names the bundle in logs and outputs (`Habit.so`).
    public var name: String { path.lastPathComponent }

    /// Every regular `*.so` file directly in `directory` (hidden temp files skipped), sorted.
    /// Every `.so` in `directory`: `[]` when the folder does not exist, nil when it cannot be
    /// listed for another reason (`EMFILE`, `EACCES`…) — that says nothing about the plugins,
    /// which must not be taken for removed.
    public static func scan(_ directory: String) -> [PluginFile]? {
        guard let names = FileIO.list(directory) else { return errno == ENOENT || errno == ENOTDIR ? [] : nil }
        return names.compactMap { name in
            guard name.hasSuffix(".so"), !name.hasPrefix(".") else { return nil }
            let path = directory + "/" + name
            var st = stat()
            guard stat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { return nil }
            let fp = "\(st.st_dev):\(st.st_ino):\(st.st_size):\(st.st_mtim.tv_sec).\(st.st_mtim.tv_nsec)"
            return PluginFile(path: path, fingerprint: fp)
        }
    }
}
