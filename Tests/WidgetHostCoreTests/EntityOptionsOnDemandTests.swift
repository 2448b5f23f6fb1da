import FoundationEssentials
import Logging
import OpenWidgetKit
import Testing
@testable import WidgetHostCore

/// `{"op":"entities"}` on virtual time: a placed bundle with entities and declared access is
/// asked again and the answer comes once the new options are in the manifest; it is asked at
/// most once per `cooldownSeconds`; a worker that does not answer is waited for at most
/// `waitSeconds` (its late answer still taken); others are not asked.
@Suite struct EntityOptionsOnDemandTests {
    /// A worker answering `describe` with `options` — at once, or, while `holding`, when `release()`d.
    final class Worker: WorkerConnection {
        var options: [EnumOption]
        var filesystems: [String]?
        var holding = false
        private(set) var describes = 0
        private var held: [(Result<WireResponse, WorkerFailure>) -> Void] = []
        init(options: [EnumOption], filesystems: [String]?) { self.options = options; self.filesystems = filesystems }
        func sendSettings(_ arguments: [String]) {}
        func send(_ request: WireRequest, timeout: Double, reply: @escaping (Result<WireResponse, WorkerFailure>) -> Void) {
            guard request.op == .describe else { reply(.success(WireResponse(ok: true, entries: []))); return }
            describes += 1
            if holding { held.append(reply) } else { reply(answer) }
        }
        var answer: Result<WireResponse, WorkerFailure> {
            .success(WireResponse(ok: true, manifest: EntityOptionsRefreshTests.manifest(options, filesystems: filesystems)))
        }
        func release() { let h = held; held = []; for r in h { r(answer) } }
        func stop() {}
    }

    final class Launcher: WorkerLauncher {
        var workers: [String: Worker] = [:]
        func launch(pluginPath: String, onExit: @escaping (WorkerFailure) -> Void) -> Result<any WorkerConnection, WorkerFailure> {
            workers[pluginPath].map { .success($0) } ?? .failure(WorkerFailure("no such plugin"))
        }
        func launch(pluginPath: String, arguments: [String], onExit: @escaping (WorkerFailure) -> Void) -> Result<any WorkerConnection, WorkerFailure> {
            launch(pluginPath: pluginPath, onExit: onExit)
        }
    }

    let all = EnumOption(value: "", title: "All Calendars"), work = EnumOption(value: "/h/work", title: "Work"), home = EnumOption(value: "/h/home", title: "Home")

    /// `cal.so` (entities, declared access), `plain.so` (entities, no access) and `unplaced.so`
    /// (entities, access, no kind placed), loaded and serving.
    func setUp() -> (VirtualLoop, PluginRegistry, Launcher, EntityOptionsOnDemand) {
        let loop = VirtualLoop(), launcher = Launcher()
        launcher.workers["/p/cal.so"] = Worker(options: [all, work], filesystems: ["~/.calendars:ro"])
        launcher.workers["/p/plain.so"] = Worker(options: [all], filesystems: nil)
        launcher.workers["/p/unplaced.so"] = Worker(options: [all], filesystems: ["~/.calendars:ro"])
        let registry = PluginRegistry(launcher: launcher, snapshotDirectory: nil, logger: Logger(label: "test"))
        registry.isNeeded = { name, _ in name != "unplaced.so" }
        registry.reconcile(["cal", "plain", "unplaced"].map { PluginFile(path: "/p/\($0).so", fingerprint: "1") })
        return (loop, registry, launcher, EntityOptionsOnDemand(loop: loop, registry: registry, logger: Logger(label: "test")))
    }

    func options(_ registry: PluginRegistry, _ name: String) -> [EnumOption]? { registry.bundles[name]?.manifest.widgets[0].parameters[0].options }

    @Test func aNewCalendarIsInTheManifestWhenTheAnswerComesAndTheBundleIsAskedAtMostOncePerCooldown() throws {
        let (loop, registry, launcher, demand) = setUp()
        let cal = try #require(launcher.workers["/p/cal.so"])
        #expect(options(registry, "cal.so") == [all, work])
        let before = cal.describes
        cal.options = [all, home, work]
        var answers: [ControlResponse] = []
        demand.refresh(bundle: nil) { answers.append($0) }
        #expect(answers.count == 1 && answers[0].ok && answers[0].asked == ["cal.so"], "\(answers)")
        #expect(options(registry, "cal.so") == [all, home, work])
        #expect(answers[0].message?.contains("not asked (no entity parameter with declared access, not placed, or no serving worker): plain.so, unplaced.so") == true, "\(answers)")
        #expect(launcher.workers["/p/plain.so"]!.describes == 1 && launcher.workers["/p/unplaced.so"]!.describes == 1, "only the validation's describe")

        demand.refresh(bundle: "cal.so") { answers.append($0) }
        #expect(answers.count == 2 && answers[1].asked == [] && cal.describes == before + 1, "\(answers)")
        loop.advance(by: EntityOptionsOnDemand.cooldownSeconds - 0.1)
        demand.refresh(bundle: "org.example.cal") { answers.append($0) }
        #expect(answers.count == 3 && answers[2].asked == [] && cal.describes == before + 1, "\(answers)")
        loop.advance(by: 0.2)
        demand.refresh(bundle: nil) { answers.append($0) }
        #expect(answers.count == 4 && answers[3].asked == ["cal.so"] && cal.describes == before + 2, "\(answers)")
    }

    @Test func aWorkerThatDoesNotAnswerIsWaitedForAtMostTheBoundAndItsLateAnswerIsTaken() throws {
        let (loop, registry, launcher, demand) = setUp()
        let cal = try #require(launcher.workers["/p/cal.so"])
        let before = cal.describes
        cal.holding = true
        cal.options = [all, home, work]
        var answers: [ControlResponse] = []
        demand.refresh(bundle: nil) { answers.append($0) }
        // A second request while the answer is in flight waits for it; the worker is not asked twice.
        demand.refresh(bundle: "cal.so") { answers.append($0) }
        #expect(answers.isEmpty && cal.describes == before + 1)
        loop.advance(by: EntityOptionsOnDemand.waitSeconds - 0.1)
        #expect(answers.isEmpty)
        loop.advance(by: 0.2)
        #expect(answers.count == 2 && answers.allSatisfy { $0.ok && $0.message?.contains("no answer yet from cal.so") == true }, "\(answers)")
        #expect(answers.map(\.asked) == [["cal.so"], []] && answers[1].message?.contains("awaited the answer already asked of cal.so") == true, "\(answers)")
        #expect(options(registry, "cal.so") == [all, work], "the old list until the answer comes")
        cal.release()
        #expect(options(registry, "cal.so") == [all, home, work])
        #expect(answers.count == 2)
    }

    @Test func anUnknownBundleIsAnError() {
        let (_, _, _, demand) = setUp()
        var answer: ControlResponse?
        demand.refresh(bundle: "nope.so") { answer = $0 }
        #expect(answer == .failure(#"no bundle "nope.so" is loaded"#))
    }
}
