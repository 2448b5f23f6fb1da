import FoundationEssentials
import WidgetHostCore
#if canImport(Glibc)
import Glibc
#endif

/// Edits a `config.json` on disk: read, apply, check, write — under an exclusive lock, so two
/// editors at once (two `widgethost add`s, the command line and a graphical editor) each see
/// the other's change and lose none.
///
/// - The lock is `flock` on the file's folder (the file itself is replaced by rename, so a lock
///   on it would not hold across edits; the folder leaves no lock file behind).
/// - The file is written to a temporary name beside it and renamed over it, with its mode kept:
///   the host, which watches the folder, reads the old text or the new, never a torn one.
/// - A change by hand between the read and the rename (an editor that takes no lock) is not
///   overwritten: the edit starts again on the new text.
/// - A symlink is followed and its target replaced (the link stays a link); the link itself is
///   touched afterwards, so a host watching the link's folder sees the change.
/// - Refused, with the file untouched: no file, a folder, a read-only file (no write bit, or a
///   read-only file system), a folder where the temporary file cannot be created.
///
/// Blocking I/O; one call at a time per instance, any number of processes at once.
public struct ConfigFileEditor {
    /// The config file as the host is given it (absolute).
    public let path: String
    public let environment: [String: String]
    /// Makes the catalog of the installed widgets for a config (its plugin folder and limits).
    public let catalog: (HostConfig) -> any WidgetCatalog

    public init(path: String, environment: [String: String], catalog: @escaping (HostConfig) -> any WidgetCatalog) {
        self.path = path; self.environment = environment; self.catalog = catalog
    }

    /// Runs `body` on an editor of the file's current text and writes the text it leaves (when it
    /// changed anything); returns what `body` returned. `body` may run more than once (when the
    /// file changed underneath) and must not have other effects.
    public func edit<R>(_ body: (inout ConfigEditor) throws -> R) throws -> R {
        let target = try writableTarget()
        let directory = target.deletingLastPathComponent
        let lock = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard lock >= 0 else { throw ConfigEditError("cannot open \(directory) to lock it: \(String(cString: strerror(errno)))") }
        defer { close(lock) }
        while flock(lock, LOCK_EX) != 0 {
            guard errno == EINTR else { throw ConfigEditError("cannot lock \(directory): \(String(cString: strerror(errno)))") }
        }
        var catalogs: [String: any WidgetCatalog] = [:]
        for _ in 0..<8 {
            let before = try fingerprint(target)
            guard let data = FileIO.read(target) else { throw ConfigEditError("cannot read \(path): \(String(cString: strerror(errno)))") }
            let original = [UInt8](data)
            let config = (try? ConfigParser.parse(data, baseDirectory: path.deletingLastPathComponent, environment: environment))
            let make = { (c: HostConfig) -> any WidgetCatalog in
                if let known = catalogs[c.paths.plugins] { return known }
                let made = catalog(c)
                catalogs[c.paths.plugins] = made
                return made
            }
            var editor = try ConfigEditor(bytes: original, baseDirectory: path.deletingLastPathComponent, environment: environment,
                                          catalog: config.map(make) ?? StaticWidgetCatalog([]))
            let result = try body(&editor)
            let edited = editor.text.bytes
            if edited == original { return result }
            guard try fingerprint(target) == before else { continue }  // changed by hand meanwhile: again, on its new text
            _ = try writableTarget()
            do { try FileIO.writeAtomically(Data(edited), to: target, mode: before.mode) } catch {
                throw ConfigEditError("\(error): \(path) not changed")
            }
            var st = stat()
            if stat(target, &st) == 0, st.st_mode & 0o7777 != before.mode { _ = chmod(target, before.mode) }
            if target != path { _ = utimensat(AT_FDCWD, path, nil, AT_SYMLINK_NOFOLLOW) }
            return result
        }
        throw ConfigEditError("\(path) kept changing while it was being edited: not changed")
    }

    /// The file to replace (the symlink's target when `path` is one), or why it cannot be.
    public func writableTarget() throws -> String {
        var st = stat()
        guard lstat(path, &st) == 0 else {
            if errno == ENOENT { throw ConfigEditError("no config file at \(path) (create one with {} in it for every default)") }
            throw ConfigEditError("cannot read \(path): \(String(cString: strerror(errno)))")
        }
        var target = path
        var what = path
        if st.st_mode & S_IFMT == S_IFLNK {
            guard let resolved = realpath(path, nil) else {
                throw ConfigEditError("\(path) is a symlink to a file that does not exist: not changed")
            }
            target = String(cString: resolved)
            free(resolved)
            what = "\(path) (a symlink to \(target))"
            guard stat(target, &st) == 0 else { throw ConfigEditError("cannot read \(what): \(String(cString: strerror(errno)))") }
        }
        guard st.st_mode & S_IFMT == S_IFREG else { throw ConfigEditError("\(what) is not a regular file: not changed") }
        if st.st_mode & 0o222 == 0 {
            throw ConfigEditError("\(what) is read-only (mode \(String(st.st_mode & 0o777, radix: 8))): not changed")
        }
        if access(target, W_OK) != 0 { throw ConfigEditError("\(what) cannot be written (\(String(cString: strerror(errno)))): not changed") }
        let directory = target.deletingLastPathComponent
        if access(directory, W_OK) != 0 {
            throw ConfigEditError("\(what) cannot be replaced: its folder \(directory) is not writable (\(String(cString: strerror(errno)))): not changed")
        }
        return target
    }

    private struct Fingerprint: Equatable {
        var device: UInt64, inode: UInt64, size: Int64, seconds: Int, nanoseconds: Int
        var mode: mode_t
    }

    private func fingerprint(_ target: String) throws -> Fingerprint {
        var st = stat()
        guard stat(target, &st) == 0 else { throw ConfigEditError("cannot read \(path): \(String(cString: strerror(errno)))") }
        return Fingerprint(device: UInt64(st.st_dev), inode: UInt64(st.st_ino), size: Int64(st.st_size),
                           seconds: st.st_mtim.tv_sec, nanoseconds: st.st_mtim.tv_nsec, mode: st.st_mode & 0o7777)
    }
}
