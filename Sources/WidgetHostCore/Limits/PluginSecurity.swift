import FoundationEssentials
import Logging
#if canImport(Glibc)
import Glibc
#endif

/// Refuses plugin files another user could have written (as ssh refuses a loose key): the
/// `Plugins/` folder and each `.so` must be owned by this user (or root) and writable by
/// neither group nor others. Loop thread only (it remembers what it already reported).
public final class PluginSecurity {
    private let logger: Logger
    private var reported: [String: String] = [:]

    public init(logger: Logger) { self.logger = logger }

    /// Why another user could write `path`, or nil.
    public static func problem(_ path: String, what: String) -> String? {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        let uid = getuid()
        if st.st_uid != uid && st.st_uid != 0 {
            return "\(what) \(path) is owned by uid \(st.st_uid), not by this user (uid \(uid)): refused"
        }
        if st.st_mode & (S_IWGRP | S_IWOTH) != 0 {
            let mode = String(st.st_mode & 0o777, radix: 8)
            return "\(what) \(path) is writable by other users (mode \(mode)): refused; fix with chmod go-w \(path)"
        }
        return nil
    }

    /// The files of `directory` that may be loaded; refusals are logged once per change.
    public func admissible(_ files: [PluginFile], directory: String) -> [PluginFile] {
        var seen: Set<String> = []
        defer { for k in reported.keys where !seen.contains(k) { reported[k] = nil } }
        if let p = Self.problem(directory, what: "plugin folder") {
            report(directory, p, &seen)
            return []
        }
        return files.filter { f in
            guard let p = Self.problem(f.path, what: "plugin") else { return true }
            report(f.path + "#" + f.fingerprint, p, &seen)
            return false
        }
    }

    private func report(_ key: String, _ message: String, _ seen: inout Set<String>) {
        seen.insert(key)
        if reported[key] != message { logger.error("\(message)"); reported[key] = message }
    }
}

/// Directory permissions the host enforces at start.
public enum StatePermissions {
    /// `state/` is created 0700 (private: ledger, timelines, bundle copies). A folder the host
    /// did not create is never chmodded (`HostFolders`): a `state` readable by others, or an
    /// `out/` writable by others, is reported, not changed.
    public static func apply(state: String, out: String, logger: Logger) {
        do { try FileIO.makeDirectories(state, mode: 0o700) } catch { logger.error("\(error)") }
        var st = stat()
        if stat(state, &st) == 0, st.st_mode & 0o077 != 0 {
            logger.warning("\(state) is open to other users (mode \(String(st.st_mode & 0o7777, radix: 8))): left as it is (the host changes no folder it did not create); chmod 700 it to keep the host's state private")
        }
        if let problem = HostFolders.problem(out) { logger.error("paths.out: \(problem)") }
    }
}
