import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Where the control socket lives (DESIGN §9): `paths.socket` when the config sets it, else
/// `$XDG_RUNTIME_DIR/widgethost/control-<hash of the state directory>.sock`, else
/// `<state>/control.sock`.
///
/// One daemon runs per state directory (`InstanceLock`), so the socket is named by the state
/// directory, and two configs with different state directories never share a socket file, whoever
/// runs them: there is no shared default name (one used to be `control.sock` for "the default
/// state", which is a different folder for each `HOME`/`XDG_STATE_HOME`, so one user's
/// `widgethost reload` reached another's daemon — issue 22). The state path is made absolute
/// against the working directory and its symbolic links resolved (as far as it exists) before
/// it is hashed, so a relative or symlinked spelling of one folder names one socket and two
/// folders that are spelt alike from different directories name two. Reads the file system
/// (`realpath`); any thread.
public enum ControlSocketPath {
    public static func resolve(_ paths: HostConfig.Paths, environment: [String: String]) -> String {
        if let s = paths.socket { return s }
        let state = canonical(paths.state)
        guard let r = environment["XDG_RUNTIME_DIR"], r.hasPrefix("/") else { return state + "/control.sock" }
        return r + "/widgethost/control-\(hash(state)).sock"
    }

    /// `path` absolute (against the working directory) with the symbolic links of its longest
    /// existing ancestor resolved; the rest, not created yet, appended as written.
    static func canonical(_ path: String, workingDirectory: @autoclosure () -> String = currentDirectory()) -> String {
        let absolute = path.hasPrefix("/") ? path : workingDirectory() + "/" + path
        var head = absolute, tail: [Substring] = []
        while !head.isEmpty && head != "/" {
            if let real = realpath(head, nil) {
                defer { free(real) }
                let resolved = String(cString: real)
                return tail.isEmpty ? resolved : (resolved == "/" ? "" : resolved) + "/" + tail.reversed().joined(separator: "/")
            }
            let cut = head.lastIndex(of: "/") ?? head.startIndex
            tail.append(head[head.index(after: cut)...])
            head = String(head[..<cut])
        }
        return absolute
    }

    static func currentDirectory() -> String {
        var buf = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        return getcwd(&buf, buf.count).map { String(cString: $0) } ?? ""
    }

    /// 12 hex digits of the FNV-1a hash of `s`: stable across runs and builds (unlike `hashValue`).
    static func hash(_ s: String) -> String {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in s.utf8 { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01b3 }
        let hex = String(h, radix: 16)
        return String((String(repeating: "0", count: 16 - hex.count) + hex).prefix(12))
    }
}
