import FoundationEssentials
import Logging
import OpenWidgetKit
import Testing
@testable import WidgetHostCore

/// Quarantine after failures in a row, until the `.so` changes.
@Suite struct BundleSupervisorTests {
    let logger = Logger(label: "test")

    @Test func quarantineAfterNWorkerFailuresUntilTheFileChanges() {
        let launcher = FakeLauncher()
        let registry = PluginRegistry(launcher: launcher, snapshotDirectory: nil, logger: logger)
        let supervisor = BundleSupervisor(logger: logger)
        supervisor.threshold = { _ in 3 }
        var crash = true, refuse = false
        let describe = fakePlugin { _ in WireResponse(ok: true) }
        launcher.plugins["/p/a.so"] = { req in
            if req.op == .describe { return describe(req) }
            if crash { return .failure(WorkerFailure("worker was killed by signal 11")) }
            return .success(refuse ? WireResponse(ok: false, error: "no network") : WireResponse(ok: true))
        }
        registry.reconcile([PluginFile(path: "/p/a.so", fingerprint: "1")])
        let b = registry.bundles["a.so"]!
        let req = WireRequest(op: .timeline, kind: "k", family: .systemSmall)
        var last: Result<WireResponse, WorkerFailure>?
        for _ in 0..<2 { supervisor.call(registry, b, req) { last = $0 } }
        #expect(supervisor.quarantineReason(b) == nil)
        // A healthy worker's ok:false neither counts nor resets the run.
        crash = false; refuse = true
        supervisor.call(registry, b, req) { last = $0 }
        crash = true
        supervisor.call(registry, b, req) { last = $0 }
        let reason = supervisor.quarantineReason(b)
        #expect(reason?.contains("a.so quarantined after 3 failures in a row (last: worker was killed by signal 11)") == true)
        let workersBefore = launcher.workers.count
        crash = false; refuse = false
        supervisor.call(registry, b, req) { last = $0 }
        if case .failure(let f) = last { #expect(f.description == reason) } else { Issue.record("expected a failure") }
        #expect(launcher.workers.count == workersBefore, "no worker is started for a quarantined bundle")
        // A new file is a new bundle: the quarantine is over.
        registry.reconcile([PluginFile(path: "/p/a.so", fingerprint: "2")])
        let b2 = registry.bundles["a.so"]!
        #expect(supervisor.quarantineReason(b2) == nil)
        supervisor.call(registry, b2, req) { last = $0 }
        if case .success(let r) = last { #expect(r.ok) } else { Issue.record("expected success") }
    }
}
