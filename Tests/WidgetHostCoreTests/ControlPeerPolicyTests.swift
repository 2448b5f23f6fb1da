import Testing
@testable import WidgetHostCore

/// The control socket refuses plugins (issue 23: a plugin sent reloads and clicks to another
/// bundle's widget through it): a worker, anything in its group or descended from it, and any
/// peer in another user namespace; the user's own tools pass.
@Suite struct ControlPeerPolicyTests {
    /// A process table: pid → (parent, group), and user namespaces (default the host's).
    struct Table: ControlPeerPolicy.ProcessTable {
        var entries: [Int32: (Int32, Int32)]
        var namespaces: [Int32: String] = [:]
        func parentAndGroup(of pid: Int32) -> (parent: Int32, group: Int32)? { entries[pid].map { ($0.0, $0.1) } }
        func userNamespace(of pid: Int32) -> String? { namespaces[pid] ?? "user:[1]" }
    }

    // 1 init; 100 the host; 200 a worker (its group); 201 its child; 300 a grandchild that left
    // the group (setsid); 400 a shell, 401 `widgethost reload` in it.
    let table = Table(entries: [100: (1, 100), 200: (100, 200), 201: (200, 200), 300: (201, 300), 400: (1, 400), 401: (400, 401),
                                // 500: a process whose parent is gone but still in the worker's group
                                500: (1, 200)])

    func refusal(_ pid: Int32, _ t: Table? = nil) -> String? {
        ControlPeerPolicy.refusal(peer: pid, workers: [200], hostPID: 100, table: t ?? table)
    }

    @Test func aWorkerAndWhatItStartedAreRefused() {
        #expect(refusal(200) == "pid 200 is a worker or was started by one")
        #expect(refusal(201) == "pid 201 is a worker or was started by one")
        #expect(refusal(300) == "pid 300 is a worker or was started by one")
        #expect(refusal(500) == "pid 500 is a worker or was started by one")
    }

    @Test func theUsersOwnToolsPass() {
        #expect(refusal(401) == nil)
        #expect(refusal(100) == nil)
        #expect(refusal(400) == nil)
    }

    @Test func aPeerInAnotherUserNamespaceOrWithoutAPidIsRefused() {
        var t = table
        t.namespaces[401] = "user:[2]"
        #expect(refusal(401, t) == "pid 401 runs in another user namespace (a sandboxed worker)")
        #expect(refusal(0) == "a peer in a PID namespace the host cannot see")
    }

    @Test func procStatFieldsAreReadAfterTheCommandName() {
        let stat = Array("42 (a) b) 3 (x) S 7 42 42 0 -1".utf8)
        #expect(ControlPeerPolicy.LiveProcessTable.parentAndGroup(stat: stat).map { [$0.parent, $0.group] } == [7, 42])
    }
}
