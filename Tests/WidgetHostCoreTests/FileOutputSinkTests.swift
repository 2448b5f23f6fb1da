import FoundationEssentials
import Logging
import Testing
@testable import WidgetHostCore

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
        sink.writeFile = { data, path in
            attempts += 1
            if full { throw DiskFull() }
            try FileIO.writeAtomically(data, to: path)
        }
        sink.write(output("0/8"))
        sink.write(output("5/8"))  // changed while the disk is full: the newest waits
        #expect(sink.dirty["w"]?.text == "5/8")
        // Backoff: 1 s, then 2 s, then 4 s between rounds (each round: one try + one after mkdir).
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
        sink.writeFile = { data, path in if full { throw DiskFull() }; try FileIO.writeAtomically(data, to: path) }
        sink.write(output("a"))
        full = false
        sink.write(output("b"))
        #expect(sink.dirty.isEmpty)
        loop.advance(by: 10)
        #expect(FileIO.read(dir.path + "/w.txt").map { String(decoding: $0, as: UTF8.self) } == "b\n")
    }
}
