import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// The `mount-sizes` declaration (docs/limits.md "Sandbox"): a worker sees the size and free
/// space of the host's volumes, not their contents. Each volume — the root and every mount of a
/// real file system (ext4, btrfs, xfs, vfat…) outside `/proc`, `/sys`, `/dev`, `/run` — is
/// reached through a directory of its own file system bound read-only and non-recursively at
/// `root` + its mount point percent-encoded (`/run/host/mounts/%2Fhome`), where the worker's
/// Landlock gives no right (nothing under it can be read, listed, written or run; `statvfs`
/// needs none). The directory is one the worker already sees when there is one on that file
/// system (`/usr` for the root, usually), so nothing new is exposed; otherwise the mount point
/// itself when nothing is mounted beneath it (the kernel refuses a non-recursive bind over
/// mounts it locked: a `stat` of a guessed name there is the one thing it adds); otherwise the
/// volume is left out. Pure, with the links' resolution injected; any thread.
public enum MountSizes {
    public static let root = "/run/host/mounts"

    /// File systems that hold a user's data.
    static let realFileSystems: Set<String> = ["ext2", "ext3", "ext4", "btrfs", "xfs", "vfat", "exfat", "ntfs", "ntfs3",
                                               "fuseblk", "f2fs", "zfs", "jfs", "reiserfs", "hfsplus", "bcachefs", "nilfs2"]

    /// A bind to make: `source` (a host path) at `destination` (a path in the worker's root).
    public struct Bind: Equatable, Sendable {
        public var source: String
        public var destination: String
    }

    /// Mount points and file systems of a `/proc/self/mountinfo` text (octal escapes decoded).
    static func mounts(mountInfo text: String) -> [(path: String, fileSystem: String)] {
        text.split(separator: "\n").compactMap { line in
            let f = line.split(separator: " ", omittingEmptySubsequences: false)
            guard f.count >= 10, let dash = f.firstIndex(of: "-"), dash >= 6, dash + 1 < f.count else { return nil }
            return (unescape(f[4]), String(f[dash + 1]))
        }
    }

    /// The binds for the host whose mount table is `mountInfo`, given the paths the worker
    /// already sees (`visible`) and a resolver of links (`realPath`: nil when it is no directory).
    public static func binds(mountInfo: String, visible: [String], resolve: (String) -> String? = MountSizes.realPath) -> [Bind] {
        let all = mounts(mountInfo: mountInfo)
        let points = Set(all.map(\.path))
        func beneath(_ dir: String, _ path: String) -> Bool { dir == "/" ? path != "/" : path.hasPrefix(dir + "/") }
        /// The mount a path is on: the longest mount point containing it.
        func owner(_ path: String) -> String? {
            points.filter { $0 == path || beneath($0, path) }.max { $0.count < $1.count }
        }
        let volumes = Set(all.filter { m in
            m.path == "/" || (realFileSystems.contains(m.fileSystem)
                              && !["/proc", "/sys", "/dev", "/run"].contains { m.path == $0 || m.path.hasPrefix($0 + "/") })
        }.map(\.path)).sorted()
        let seen = visible.compactMap(resolve)
        return volumes.compactMap { volume in
            let free = { (dir: String) in !points.contains { beneath(dir, $0) } }
            let source = seen.first { owner($0) == volume && free($0) } ?? (free(volume) ? volume : nil)
            return source.map { Bind(source: $0, destination: root + "/" + encoded(volume)) }
        }
    }

    /// `%` → `%25`, `/` → `%2F`: one path component per mount point, decoded unambiguously.
    public static func encoded(_ path: String) -> String {
        path.reduce(into: "") { out, c in out += c == "%" ? "%25" : c == "/" ? "%2F" : String(c) }
    }

    /// The directory `path` with every link resolved, or nil when it is no directory.
    public static func realPath(_ path: String) -> String? {
        guard let p = realpath(path, nil) else { return nil }
        defer { free(p) }
        var st = stat()
        guard stat(p, &st) == 0, st.st_mode & S_IFMT == S_IFDIR else { return nil }
        return String(cString: p)
    }

    /// The field with the kernel's four octal escapes (`\040` space, `\011` tab, `\012` newline,
    /// `\134` backslash) decoded; the backslash last, so `\134040` stays `\040`.
    static func unescape(_ field: Substring) -> String {
        guard field.contains("\\") else { return String(field) }
        return [("\\040", " "), ("\\011", "\t"), ("\\012", "\n"), ("\\134", "\\")].reduce(String(field)) { $0.replacing($1.0, with: $1.1) }
    }
}
