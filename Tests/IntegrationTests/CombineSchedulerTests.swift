import Combine
import Dispatch
import FoundationEssentials
import Testing

/// The SDK's `Combine` (Sources/Combine): `DispatchQueue` is a `Scheduler` whatever else the build
/// has compiled before or after it (issue 22), and schedules as Apple's does.
@Suite struct CombineSchedulerTests {
    /// The rebuild of issue 22, replayed with the compiler: each module `Combine` imports whose
    /// sources ask `canImport(Combine)` is compiled again *now*, when `Combine.swiftmodule` exists
    /// in the build's module folder (as an incremental build does), into a folder searched first;
    /// a provider's `.receive(on: DispatchQueue.main)` and `optional.publisher` must still compile
    /// against it. With OpenCombineDispatch underneath (its conformance sits in
    /// `#if !canImport(Combine)`) it failed: "requires that 'DispatchQueue' conform to 'Scheduler'".
    @Test func combineKeepsItsAPIWhenItsDependenciesAreRebuiltAfterIt() throws {
        let modules = TestPaths.products + "/Modules"
        try #require(FileManagerFree.exists(modules + "/Combine.swiftmodule"),
                     "\(modules)/Combine.swiftmodule is missing: run `swift build` before `swift test`")
        let dir = TempDir()
        defer { dir.remove() }
        let rebuilt = dir.path + "/rebuilt"
        #expect(run("/bin/mkdir", ["-p", rebuilt]).status == 0)

        let sources = TestPaths.products + "/../../checkouts/OpenCombine/Sources"
        let cModules = cModuleMapFlags
        var rebuiltModules: [String] = []
        for module in try modulesImported(by: "Combine", in: modules) {
            let files = run("/usr/bin/find", ["\(sources)/\(module)", "-name", "*.swift"]).stdout
                .split(separator: "\n").map(String.init)
            guard files.contains(where: { FileManagerFree.read($0)?.contains("canImport(Combine)") == true }) else { continue }
            let r = run(swiftc, ["-parse-as-library", "-swift-version", "5", "-module-name", module, "-emit-module",
                                 "-emit-module-path", "\(rebuilt)/\(module).swiftmodule", "-I", rebuilt, "-I", modules] + cModules + files)
            try #require(r.status == 0, "rebuilding \(module): \(r.stderr)")
            rebuiltModules.append(module)
        }
        #expect(!rebuiltModules.isEmpty, "no module under \(sources) asks canImport(Combine): the replay replays nothing")

        let consumer = dir.path + "/Provider.swift"
        FileManagerFree.write(consumer, """
            import Combine
            import Dispatch
            let delivery = Just(1).receive(on: DispatchQueue.main).sink { _ in }
            let debounced = Just(1).debounce(for: .milliseconds(5), scheduler: DispatchQueue.main).sink { _ in }
            let optional: Optional<Int>.Publisher = Optional(1).publisher
            let result: Result<Int, Never>.Publisher = Result<Int, Never>.success(1).publisher
            """)
        let r = run(swiftc, ["-typecheck", "-swift-version", "5", "-I", rebuilt, "-I", modules] + cModules + [consumer])
        #expect(r.status == 0, "with \(rebuiltModules) rebuilt after Combine: \(r.stderr)")
    }

    /// `schedule(after:)` runs the action on the queue, not before the date.
    @Test func scheduleAfterRunsOnTheQueueAtOrAfterTheDate() async {
        let queue = DispatchQueue(label: "CombineSchedulerTests.after")
        let key = DispatchSpecificKey<Bool>()
        queue.setSpecific(key: key, value: true)
        let date = queue.now.advanced(by: .milliseconds(20))
        let (ranOnQueue, ranAt) = await withCheckedContinuation { (done: CheckedContinuation<(Bool, DispatchQueue.SchedulerTimeType), Never>) in
            queue.schedule(after: date) { done.resume(returning: (DispatchQueue.getSpecific(key: key) == true, queue.now)) }
        }
        #expect(ranOnQueue)
        #expect(ranAt >= date)
    }

    /// A repeating schedule fires until it is cancelled, and not after: cancelled from its own
    /// third run on its serial queue, a later action on that queue sees three runs.
    @Test func aRepeatingScheduleStopsWhenCancelled() async {
        let queue = DispatchQueue(label: "CombineSchedulerTests.interval")
        let runs = await withCheckedContinuation { (done: CheckedContinuation<Int, Never>) in
            let state = RepeatState()
            queue.schedule {  // on the queue, so the handle is stored before the first run reads it
                state.cancellable = queue.schedule(after: queue.now, interval: .milliseconds(2)) {
                    state.runs += 1
                    guard state.runs == 3 else { return }
                    state.cancellable?.cancel()
                    queue.schedule(after: queue.now.advanced(by: .milliseconds(20))) { done.resume(returning: state.runs) }
                }
            }
        }
        #expect(runs == 3)
    }

    /// Literals are seconds and strides are nanoseconds, as in Apple's Combine.
    @Test func strideLiteralsAreSeconds() {
        typealias Stride = DispatchQueue.SchedulerTimeType.Stride
        #expect((2 as Stride).magnitude == 2_000_000_000)
        #expect((0.5 as Stride).magnitude == 500_000_000)
        #expect(Stride.milliseconds(3) + .microseconds(4) == .nanoseconds(3_004_000))
        let start = DispatchQueue.SchedulerTimeType(DispatchTime(uptimeNanoseconds: 1_000))
        #expect(start.distance(to: start.advanced(by: .seconds(1))) == .seconds(1))
        #expect(start.advanced(by: .nanoseconds(500)).distance(to: start) == .nanoseconds(-500))
    }

    var swiftc: String { FileManagerFree.exists("/opt/swift/usr/bin/swiftc") ? "/opt/swift/usr/bin/swiftc" : "/usr/bin/swiftc" }

    /// The maps of the C modules SwiftPM generated (OpenCombine imports COpenCombineHelpers), passed
    /// as SwiftPM passes them. Not the `-tool` copies SwiftPM makes for a build plugin's tool
    /// (`widget-resource-compiler`): the same modules again, which the compiler calls redefinitions.
    var cModuleMapFlags: [String] {
        run("/usr/bin/find", [TestPaths.products, "-maxdepth", "2", "-name", "module.modulemap"]).stdout
            .split(separator: "\n").filter { !$0.contains("-tool.build/") }.flatMap { ["-Xcc", "-fmodule-map-file=\($0)"] }
    }

    /// The modules of the build's module folder that `module` loads, from the compiler's own trace.
    func modulesImported(by module: String, in modules: String) throws -> [String] {
        let dir = TempDir()
        defer { dir.remove() }
        FileManagerFree.write(dir.path + "/use.swift", "import \(module)\n")
        let r = run(swiftc, ["-typecheck", "-I", modules, "-emit-loaded-module-trace-path", dir.path + "/trace.json"]
                    + cModuleMapFlags + [dir.path + "/use.swift"])
        try #require(r.status == 0, "\(r.stderr)")
        let trace = try JSONDecoder().decode(LoadedModuleTrace.self, from: Data(try #require(FileManagerFree.bytes(dir.path + "/trace.json"))))
        return trace.swiftmodulesDetailedInfo.filter { $0.path.hasPrefix(modules + "/") && $0.name != module }.map(\.name)
    }
}

/// The part of `swiftc -emit-loaded-module-trace-path`'s JSON the rebuild test reads.
private struct LoadedModuleTrace: Decodable {
    struct Module: Decodable {
        let name: String
        let path: String
    }
    let swiftmodulesDetailedInfo: [Module]
}

/// The repeating schedule's run count and handle, touched only on its serial queue.
private final class RepeatState: @unchecked Sendable {
    var runs = 0
    var cancellable: (any Cancellable)?
}
