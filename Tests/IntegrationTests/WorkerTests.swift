import FoundationEssentials
import OpenWidgetKit
import Testing
import WidgetHostCore
#if canImport(Glibc)
import Glibc
#endif

/// The worker process against a plugin written in C against the header alone, and against every
/// kind of broken file: each must give one clear error line to the caller and never crash it.
@Suite struct WorkerTests {
    @Test func cPluginAnswersDescribeAndTimeline() throws {
        let dir = TempDir(); defer { dir.remove() }
        let so = try buildCPlugin(in: dir.path, name: "hello")
        let worker = try BlockingWorkerClient(pluginPath: so, executable: TestPaths.worker)
        let described = try worker.request(WireRequest(op: .describe))
        #expect(described.ok)
        #expect(described.manifest?.bundleId == "org.example.hello-c")
        #expect(described.manifest?.widgets.map(\.kind) == ["hello"])
        #expect(described.manifest?.widgets.first?.families == [.accessoryInline, .systemSmall])

        let timeline = try worker.request(WireRequest(op: .timeline, kind: "hello", family: .systemSmall))
        #expect(timeline.ok)
        let entry = try #require(timeline.entries?.first)
        #expect(entry.view.kind == .vstack)
        #expect(entry.view.childNodes.first?.text == "Hello from C")
        #expect(timeline.policy?.type == "after")
        #expect((timeline.policy?.date ?? .distantPast) > entry.date)
    }

    /// A worker's arguments are parsed by hand (start-up cost, issue 6): both spellings the
    /// command declares work, and a bad value or a missing plugin is a usage error (64).
    @Test func workerArgumentsAreParsedLikeTheCommandDeclaresThem() throws {
        let dir = TempDir(); defer { dir.remove() }
        let so = try buildCPlugin(in: dir.path, name: "hello")
        let frame = Array(Framing.frame(try WireCodec.encode(WireRequest(op: .describe))))
        let ok = run(TestPaths.widgethost, ["worker", "--plugin", so, "--memory-mb=64", "--view-deadline-ms", "500"],
                     stdin: String(decoding: frame, as: UTF8.self))
        #expect(ok.status == 0, "stderr: \(ok.stderr)")
        #expect(ok.stdout.contains("org.example.hello-c"))
        for (args, complaint) in [(["--plugin", so, "--memory-mb", "lots"], "invalid value 'lots' for '--memory-mb'"),
                                  (["--memory-mb", "64"], "missing expected argument '--plugin"),
                                  (["--plugin", so, "--colour", "red"], "unknown option '--colour'"),
                                  (["--plugin"], "missing value for '--plugin'")] {
            let r = run(TestPaths.widgethost, ["worker"] + args)
            #expect(r.status == 64, "\(args)")
            #expect(r.stderr.contains(complaint), "\(args): \(r.stderr)")
        }
    }

    @Test func pluginStdoutCannotCorruptTheProtocol() throws {
        let dir = TempDir(); defer { dir.remove() }
        let so = try buildCPlugin(in: dir.path, name: "chatty", defines: ["HELLO_PRINTS"])
        let worker = try BlockingWorkerClient(pluginPath: so, executable: TestPaths.worker)
        for _ in 0..<20 {
            let r = try worker.request(WireRequest(op: .timeline, kind: "hello", family: .systemSmall))
            #expect(r.ok)
            #expect(r.entries?.count == 1)
        }
    }

    @Test func malformedResponseIsAClearError() throws {
        let dir = TempDir(); defer { dir.remove() }
        let so = try buildCPlugin(in: dir.path, name: "garbage", defines: ["HELLO_MALFORMED"])
        let worker = try BlockingWorkerClient(pluginPath: so, executable: TestPaths.worker)
        let error = try #require(throws: BlockingWorkerClient.Failure.self) {
            try worker.request(WireRequest(op: .describe))
        }
        #expect(error.description.contains("malformed response"))
    }

    /// Every broken file yields exactly one line, naming the file and the reason.
    @Test(arguments: [
        ("not-elf", "not an ELF file"),
        ("empty", "empty file"),
        ("truncated", "truncated ELF file"),
        ("no-entry", "does not export widget_plugin_entry_v1"),
        ("wrong-abi", "plugin ABI version 99"),
        ("old-sdk", "built with OpenWidgetKit 0.0.1-old"),
        ("missing", "cannot open"),
        ("directory", "not a regular file"),
    ])
    func brokenPluginGivesOneClearLine(name: String, expected: String) throws {
        let dir = TempDir(); defer { dir.remove() }
        let path: String
        switch name {
        case "not-elf":
            path = dir.path + "/notes.so"
            FileManagerFree.write(path, "these are not the bytes you are looking for\n" + String(repeating: "x", count: 200))
        case "empty":
            path = dir.path + "/empty.so"
            FileManagerFree.write(path, "")
        case "truncated":
            let good = try buildCPlugin(in: dir.path, name: "good")
            path = dir.path + "/truncated.so"
            let r = run("/bin/sh", ["-c", "head -c 6000 '\(good)' > '\(path)'"])
            try #require(r.status == 0)
        case "no-entry": path = try buildCPlugin(in: dir.path, name: "noentry", defines: ["HELLO_NO_ENTRY"])
        case "wrong-abi": path = try buildCPlugin(in: dir.path, name: "wrongabi", defines: ["HELLO_WRONG_ABI"])
        case "old-sdk": path = try buildCPlugin(in: dir.path, name: "oldsdk", defines: ["HELLO_OLD_SDK"])
        case "missing": path = dir.path + "/does-not-exist.so"
        default: path = dir.path
        }
        let worker = try BlockingWorkerClient(pluginPath: path, executable: TestPaths.worker)
        let error = try #require(throws: BlockingWorkerClient.Failure.self) {
            try worker.request(WireRequest(op: .describe))
        }
        #expect(error.description.contains(expected), "got: \(error.description)")
        #expect(error.description.contains(path))
        #expect(!error.description.contains("\n"))
    }
}

/// A worker's pid is free once it is reaped, and on this machine kind (`pid_max` 32768) the next
/// process to take it can be any program's group leader: `BlockingWorkerClient` killed the
/// worker's group by that pid after reaping it, and an Xvfb another test had started died that
/// way in a CI run. `ns_last_pid` hands the freed pid to a process of the test's own.
@Suite(.serialized) struct FreedWorkerPIDTests {
    @Test func aReapedWorkersPidIsNotKilledAsAGroupWhenAnotherProcessHasIt() throws {
        let lastPID = "/proc/sys/kernel/ns_last_pid"
        let ci = getenv("CI").map { String(cString: $0) } == "true"
        guard access(lastPID, W_OK) == 0 else {
            #expect(!ci, "CI runs as root and must run this test: \(lastPID) is not writable")
            return
        }
        let dir = TempDir()
        var worker: BlockingWorkerClient? = try BlockingWorkerClient(pluginPath: dir.path + "/does-not-exist.so", executable: TestPaths.worker)
        #expect(throws: BlockingWorkerClient.Failure.self) { try worker?.request(WireRequest(op: .describe)) }
        #expect(worker?.hasExited == true, "the worker ended and was reaped")
        let freed = try #require(worker?.pid)
        #expect(eventually(timeout: 10) { kill(-freed, 0) != 0 && errno == ESRCH }, "the worker's group is gone, so its pid is free")
        var holder: BarProcess?
        for attempt in 0..<50 where holder == nil {
            FileManagerFree.write(lastPID, "\(freed - 1)")
            let p = try BarProcess("/bin/sleep", ["60"], dir: dir.path, name: "holder\(attempt)", ownGroup: true)
            if p.pid == freed { holder = p }  // else another fork took it first: that one ends at once
        }
        let h = try #require(holder, "no process of the test got pid \(freed)")
        worker = nil
        #expect(isAlive(h.pid), "the client killed the group of the process that has its worker's old pid")
    }
}
