import FoundationEssentials
import Logging
import Testing
@testable import WidgetHostCore
#if canImport(Glibc)
import Glibc
#endif

/// After `out/` was full, an output that changed meanwhile was never rewritten until the widget
/// changed again (issue 15): a failed write stays dirty and is retried with backoff.
@Suite struct FileOutputSinkTests {
    struct DiskFull: Error {}

    func output(_ text: String) -> WidgetOutput { WidgetOutput(id: "w", text: text, kind: "k", family: "systemSmall") }

    @Test func aFailedWriteIsRetriedWithBackoffUntilItLands() throws {
        let dir = TestDirectory(); defer { dir.remove() }
        let loop = VirtualLoop()
        let sink = FileOutputSink(directory: dir.path, logger: Logger(label: "test"))
        sink.attach(loop: loop)
        var full = true, attempts = 0
        sink.beforeEachFile = { _ in
            attempts += 1
            if full { throw DiskFull() }
        }
        sink.write(output("0/8"))
        sink.write(output("5/8"))  // changed while the disk is full: the newest waits
        #expect(sink.dirty["w"]?.text == "5/8")
        // Backoff: 1 s, then 2 s, then 4 s between rounds (each round: one try + one after reopening).
        let afterWrites = attempts
        loop.advance(by: 0.9); #expect(attempts == afterWrites)
        loop.advance(by: 0.2); #expect(attempts == afterWrites + 2)
        loop.advance(by: 1.8); #expect(attempts == afterWrites + 2)
        loop.advance(by: 0.3); #expect(attempts == afterWrites + 4)
        full = false
        loop.advance(by: 4)
        #expect(sink.dirty.isEmpty)
        #expect(FileIO.read(dir.path + "/w.txt").map { String(decoding: $0, as: UTF8.self) } == "5/8\n")
        let landed = attempts
        loop.advance(by: 120)
        #expect(attempts == landed, "nothing dirty, nothing retried")
    }

    @Test func aLaterGoodWriteClearsTheDirtyOutput() {
        let dir = TestDirectory(); defer { dir.remove() }
        let loop = VirtualLoop()
        let sink = FileOutputSink(directory: dir.path, logger: Logger(label: "test"))
        sink.attach(loop: loop)
        var full = true
        sink.beforeEachFile = { _ in if full { throw DiskFull() } }
        sink.write(output("a"))
        full = false
        sink.write(output("b"))
        #expect(sink.dirty.isEmpty)
        loop.advance(by: 10)
        #expect(FileIO.read(dir.path + "/w.txt").map { String(decoding: $0, as: UTF8.self) } == "b\n")
    }

    func text(_ path: String) -> String? { FileIO.read(path).map { String(decoding: $0, as: UTF8.self) } }

    /// Issue 16: outputs nobody reads are not written. A widget whose outputs are `stdout` only
    /// writes no file; `txt` and `json` write one format each; `files` both.
    @Test func eachWidgetGetsTheFilesItsOutputsSelect() {
        let dir = TestDirectory(); defer { dir.remove() }
        let files = FileOutputSink(directory: dir.path, logger: Logger(label: "test"))
        var lines: [String] = []
        let publisher = OutputPublisher(sinks: [files, JSONLinesSink { lines.append(String(decoding: $0, as: UTF8.self)) }])
        func out(_ id: String) -> WidgetOutput { WidgetOutput(id: id, text: "12:00", kind: "clock", family: "accessoryInline") }
        publisher.publish(out("s"), to: [.stdout])
        publisher.publish(out("t"), to: [.txt])
        publisher.publish(out("j"), to: [.json, .stdout])
        publisher.publish(out("f"), to: [.files])
        publisher.publish(out("b"), to: [.txt, .json])
        #expect(FileIO.list(dir.path) == ["b.json", "b.txt", "f.json", "f.txt", "j.json", "t.txt"])
        #expect(files.writeCount == 6)
        #expect(lines.count == 2, "stdout: s and j")
        // The JSON object is encoded once per update and both sinks write the same bytes.
        #expect(lines.last == text(dir.path + "/j.json"))
    }

    /// The bytes each file holds: the text and a newline; the JSON object (as `jsonData`, the
    /// reference `JSONEncoder` output the JSON tests check) and a newline — as the write path
    /// before the directory descriptor and `writev` wrote them.
    @Test func theFilesHoldTheTextAndTheObjectEachWithANewline() {
        let dir = TestDirectory(); defer { dir.remove() }
        let files = FileOutputSink(directory: dir.path + "/out", logger: Logger(label: "test"))
        let o = WidgetOutput(id: "w", text: "Ünïcode ✓ & <b>", tooltip: "line 1\nline 2", class: ["a"], kind: "k",
                             family: "systemSmall", date: "2026-01-01T12:00:00Z")
        files.write(PublishedOutput(o), selected: [.files])
        #expect(text(dir.path + "/out/w.txt") == "Ünïcode ✓ & <b>\n")
        #expect(FileIO.read(dir.path + "/out/w.json") == o.jsonData() + Data([0x0a]))
        #expect(text(dir.path + "/out/w.json") == #"{"class":["a"],"date":"2026-01-01T12:00:00Z","family":"systemSmall","id":"w","kind":"k","stale":false,"text":"Ünïcode ✓ & <b>","tooltip":"line 1\nline 2"}"# + "\n")
        let empty = WidgetOutput(id: "e", text: "", kind: "k", family: "f")
        files.write(PublishedOutput(empty), selected: [.txt])
        #expect(text(dir.path + "/out/e.txt") == "\n")
        #expect(FileIO.list(dir.path + "/out") == ["e.txt", "w.json", "w.txt"], "no temp file left behind")
    }

    /// The sink writes relative to a directory descriptor: when the directory is removed under
    /// it, the next write makes it again and lands, as the path-based writes did.
    @Test func aRemovedOutputDirectoryIsMadeAgain() {
        let dir = TestDirectory(); defer { dir.remove() }
        let files = FileOutputSink(directory: dir.path + "/out", logger: Logger(label: "test"))
        files.write(PublishedOutput(WidgetOutput(id: "w", text: "1", kind: "k", family: "f")), selected: [.txt])
        unlink(dir.path + "/out/w.txt")
        #expect(rmdir(dir.path + "/out") == 0)
        files.write(PublishedOutput(WidgetOutput(id: "w", text: "2", kind: "k", family: "f")), selected: [.txt])
        #expect(text(dir.path + "/out/w.txt") == "2\n")
        #expect(files.dirty.isEmpty)
        files.directory = dir.path + "/elsewhere"
        files.write(PublishedOutput(WidgetOutput(id: "w", text: "3", kind: "k", family: "f")), selected: [.json])
        #expect(FileIO.list(dir.path + "/elsewhere") == ["w.json"])
        files.remove("w")
        #expect(FileIO.list(dir.path + "/elsewhere") == [])
    }

    @Test func anOutputDirectoryMovedAwayIsMadeAgainAtItsPath() {
        let dir = TestDirectory(); defer { dir.remove() }
        let files = FileOutputSink(directory: dir.path + "/out", logger: Logger(label: "test"))
        files.write(PublishedOutput(WidgetOutput(id: "w", text: "1", kind: "k", family: "f")), selected: [.txt])
        #expect(rename(dir.path + "/out", dir.path + "/out.old") == 0)
        // The path is checked again within a second: keep writing until the file is back.
        var n = 2
        var back = false
        let deadline = ContinuousClock.now + .seconds(10)
        while !back && ContinuousClock.now < deadline {
            files.write(PublishedOutput(WidgetOutput(id: "w", text: "\(n)", kind: "k", family: "f")), selected: [.txt])
            n += 1
            back = text(dir.path + "/out/w.txt") != nil
            if !back { usleep(20_000) }
        }
        #expect(back, "writes went on into the moved directory")
        #expect(files.dirty.isEmpty)
    }

    @Test func aRemovedWidgetsPendingRetryDoesNotBringItsFilesBack() {
        let dir = TestDirectory(); defer { dir.remove() }
        let files = FileOutputSink(directory: dir.path + "/out", logger: Logger(label: "test"))
        files.beforeEachFile = { _ in throw FileIO.Failure(description: "disk full") }
        files.write(PublishedOutput(WidgetOutput(id: "w", text: "1", kind: "k", family: "f")), selected: [.txt])
        #expect(files.dirty["w"] != nil)
        files.remove("w")
        files.beforeEachFile = { _ in }
        files.retryDirty()
        #expect(text(dir.path + "/out/w.txt") == nil)
    }

    @Test func changingAWidgetsOutputsRemovesTheDroppedFileAndWritesTheNewOneAtOnce() {
        let dir = TestDirectory(); defer { dir.remove() }
        let files = FileOutputSink(directory: dir.path + "/out", logger: Logger(label: "test"))
        let publisher = OutputPublisher(sinks: [files])
        let o = WidgetOutput(id: "w", text: "1", kind: "k", family: "f")
        publisher.publish(o, to: [.files])
        #expect(FileIO.list(dir.path + "/out")?.sorted() == ["w.json", "w.txt"])
        publisher.outputsChanged("w", to: [.txt])
        #expect(FileIO.list(dir.path + "/out") == ["w.txt"], "a .json nobody asks for any more would freeze")
        publisher.outputsChanged("w", to: [.json])
        #expect(publisher.publish(o, to: [.json]), "the same rendering goes out to the new selection")
        #expect(FileIO.list(dir.path + "/out") == ["w.json"])
    }
}
