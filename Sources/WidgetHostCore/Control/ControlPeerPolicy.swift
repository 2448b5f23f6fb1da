#if canImport(Glibc)
import Glibc
#endif

/// Who may talk to the control socket besides its owner's uid (the socket is 0600 in a 0700
/// folder): never a plugin (issue 23 — a plugin found the socket and sent 98 reloads and 97
/// clicks to another bundle's widget in 8 s). A peer (its pid from `SO_PEERCRED`) is refused when
/// it is one of this host's workers, in a worker's process group, or descended from a worker
/// (a child that left the group with `setsid` still descends from it; in the worker's own PID
/// namespace an orphan is adopted by the namespace's first process, a worker's child); and when
/// it runs in another user namespace than the host — a worker of any widgethost daemon of the
/// user, this one's or another's, runs in a user namespace of its own. A peer whose pid the
/// kernel cannot give (0: it is in a PID namespace this host cannot see) is refused too.
///
/// Pure over the process table it is given (`ProcessTable`); `LiveProcessTable` reads `/proc`.
/// Any thread.
public enum ControlPeerPolicy {
    /// What the policy needs to know of a process.
    public protocol ProcessTable {
        /// The parent's pid and the process group of `pid`, nil when it is gone.
        func parentAndGroup(of pid: Int32) -> (parent: Int32, group: Int32)?
        /// An identity of `pid`'s user namespace, nil when unknown.
        func userNamespace(of pid: Int32) -> String?
    }

    /// Why the peer `pid` is refused, or nil when it may use the socket. `workers`: the pids of
    /// this host's live workers (each leads a process group of that id); `hostPID`: this host.
    public static func refusal(peer pid: Int32, workers: Set<Int32>, hostPID: Int32, table: some ProcessTable) -> String? {
        guard pid > 0 else { return "a peer in a PID namespace the host cannot see" }
        if let own = table.userNamespace(of: hostPID), let theirs = table.userNamespace(of: pid), own != theirs {
            return "pid \(pid) runs in another user namespace (a sandboxed worker)"
        }
        var current = pid
        // Bounded: a chain longer than any real one (pid_max steps) cannot loop for ever.
        for _ in 0..<4096 {
            if workers.contains(current) { return "pid \(pid) is a worker or was started by one" }
            guard current != hostPID, current > 1, let entry = table.parentAndGroup(of: current) else { return nil }
            if workers.contains(entry.group) { return "pid \(pid) is a worker or was started by one" }
            current = entry.parent
        }
        return nil
    }

    /// `/proc` of this machine.
    public struct LiveProcessTable: ProcessTable {
        public init() {}

        public func parentAndGroup(of pid: Int32) -> (parent: Int32, group: Int32)? {
            guard let stat = FileIO.read("/proc/\(pid)/stat", limit: 4096) else { return nil }
            return Self.parentAndGroup(stat: Array(stat))
        }

        /// Fields 4 and 5 of `/proc/<pid>/stat`, counted after the last `)` (the command name
        /// before it may hold spaces and parentheses).
        static func parentAndGroup(stat: [UInt8]) -> (parent: Int32, group: Int32)? {
            guard let close = stat.lastIndex(of: UInt8(ascii: ")")) else { return nil }
            let fields = stat[(close + 1)...].split(separator: UInt8(ascii: " "))
            guard fields.count > 3, let parent = Int32(String(decoding: fields[1], as: UTF8.self)),
                  let group = Int32(String(decoding: fields[2], as: UTF8.self)) else { return nil }
            return (parent, group)
        }

        public func userNamespace(of pid: Int32) -> String? {
            var buffer = [CChar](repeating: 0, count: 64)
            let n = readlink("/proc/\(pid)/ns/user", &buffer, buffer.count - 1)
            guard n > 0 else { return nil }
            return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
    }
}
