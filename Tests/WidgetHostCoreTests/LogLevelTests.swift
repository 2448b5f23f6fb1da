import FoundationEssentials
import Logging
import OpenWidgetKit
import Synchronization
import Testing
@testable import WidgetHostCore

/// Every line a logger is given, with its level (tests only).
final class LogRecorder: Sendable {
    private let lines = Mutex<[(Logger.Level, String)]>([])
    var all: [(Logger.Level, String)] { lines.withLock { $0 } }
    func at(_ level: Logger.Level) -> [String] { all.filter { $0.0 == level }.map(\.1) }

    var logger: Logger {
        var l = Logger(label: "test") { _ in Handler(recorder: self) }
        l.logLevel = .trace
        return l
    }

    struct Handler: LogHandler {
        let recorder: LogRecorder
        var logLevel: Logger.Level = .trace
        var metadata: Logger.Metadata = [:]
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        func log(event: LogEvent) {
            recorder.lines.withLock { $0.append((event.level, event.message.description)) }
        }
    }
}

/// Logs for a service (issue 14), on virtual time: a reload is debug; a widget going stale is
/// one warning (its retries are debug) and its recovery one info line; a home-screen widget
/// without a containerBackground one info line at its first timeline, not per reload.
@Suite struct LogLevelTests {
    @Test func staleOnceRetriesQuietlyRecoveredOnce() {
        let log = LogRecorder()
        var fail = false
        let h = TimelineSchedulerTests.Harness(logger: log.logger) { h in
            fail ? WireResponse.failure("boom")
                 : WireResponse(ok: true, entries: [textEntry(h.loop.now, "good")], policy: WirePolicy(type: "never"))
        }
        #expect(log.at(.debug) == ["reload w (b.so k systemSmall): first load"])
        let background = "w: k (systemSmall): no containerBackground — iOS 17 shows \"Please adopt containerBackground API\" "
            + "instead of this widget; add .containerBackground(for: .widget) { … }"
        #expect(log.at(.info) == [background])
        fail = true
        h.scheduler.reload(reason: "test") { _ in true }
        h.loop.advance(by: 5)   // first retry, fails again
        h.loop.advance(by: 10)  // second retry, fails again
        #expect(h.calls == 4)
        #expect(log.at(.warning) == ["reload failed: w: timeline failed: boom (retry in 5 s); w is stale"])
        #expect(log.at(.debug).filter { $0.hasPrefix("reload failed: w") }.count == 2, "retries are not news")
        fail = false
        h.loop.advance(by: 20)
        #expect(log.at(.info) == [background, "w recovered after 3 failed reloads"], "the new timeline is not named again")
        #expect(log.at(.warning).count == 1 && log.at(.error).isEmpty)
    }
}

/// A stop is not a failure: an answer still in flight when the scheduler closes (the workers
/// stopped at shutdown fail it) neither marks the widget stale in its output nor logs it.
@Suite struct ShutdownTests {
    @Test func anAnswerArrivingAfterCloseIsIgnored() {
        let log = LogRecorder()
        let loop = VirtualLoop()
        let sink = RecordingSink()
        var pending: [(Result<WireResponse, WorkerFailure>) -> Void] = []
        var first = true
        let scheduler = TimelineScheduler(loop: loop, renderer: StandardEntryRenderer(), publisher: OutputPublisher(sinks: [sink]),
                                          logger: log.logger) { _, _, reply in
            if first {
                first = false
                reply(.success(WireResponse(ok: true, entries: [textEntry(loop.now, "good")], policy: WirePolicy(type: "never"))))
            } else { pending.append(reply) }
        }
        scheduler.setInstances([InstanceSpec(id: "w", bundleName: "b.so", kind: "k", family: .systemSmall, outputs: [.stdout])])
        scheduler.reload(reason: "test") { _ in true }
        #expect(pending.count == 1)
        let written = sink.written.count
        scheduler.close()
        pending[0](.failure(WorkerFailure("worker of b.so was stopped")))
        #expect(sink.written.count == written, "no stale output written at shutdown")
        #expect(sink.written.last?.stale == false)
        #expect(log.at(.warning).isEmpty && log.at(.error).isEmpty)
    }
}
