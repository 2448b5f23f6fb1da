#if canImport(Glibc)
import Glibc
#endif

/// The folders the host keeps its own files in — `paths.state` (ledger, timelines, bundle
/// copies, the instance lock) and `paths.out` (what bars read) — must be this user's and
/// writable by nobody else. The host never changes the mode of a folder it did not create: a
/// config naming a shared one (`/tmp`, mode 1777) once had it chmodded to 0700 or 0755, the
/// sticky bit lost for every user of the machine (issue 23). Such a folder is refused instead,
/// and the user names a folder of its own, which the host then creates private. Pure (reads
/// the file system). Safe from any thread.
public enum HostFolders {
    /// The first of `paths.state` and `paths.out` that exists and is shared or another user's:
    /// its config key and why it is refused. nil when both are fine (or do not exist yet: the
    /// host creates them, `state` 0700 and `out` 0755).
    public static func problem(_ paths: HostConfig.Paths) -> (key: String, reason: String)? {
        for (key, path) in [("paths.state", paths.state), ("paths.out", paths.out)] {
            if let reason = problem(path) { return (key, reason) }
        }
        return nil
    }

    /// Why the existing folder `path` cannot hold the host's files, or nil.
    public static func problem(_ path: String) -> String? {
        var st = stat()
        guard stat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFDIR else { return nil }
        let mode = String(st.st_mode & 0o7777, radix: 8)
        let uid = getuid()
        if st.st_uid != uid {
            return "\(path) belongs to uid \(st.st_uid), not to this user (uid \(uid)): refused; name a folder of your own (the host creates it)"
        }
        if st.st_mode & (S_IWGRP | S_IWOTH) != 0 {
            let shared = st.st_mode & S_ISVTX != 0 ? "a shared folder" : "writable by other users"
            return "\(path) is \(shared) (mode \(mode)): refused, the host never changes a folder it did not create; name a private folder inside it instead (e.g. \(path == "/" ? "" : path)/widgethost-\(uid)), the host creates it"
        }
        return nil
    }
}
