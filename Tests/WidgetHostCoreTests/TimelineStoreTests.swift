import FoundationEssentials
import Logging
import OpenWidgetKit
import Testing
@testable import WidgetHostCore

/// The last-good-timeline store's write-behind (issue 6): a widget's first timeline is on disk at
/// once, later ones wait for the timer and only the newest is written, shutdown writes the rest.
@Suite struct TimelineStoreTests {
    let spec = InstanceSpec(id: "w", bundleName: "b.so", kind: "k", family: .systemSmall)
    let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    func onDisk(_ dir: TestDirectory) -> String? {
        let fresh = TimelineStore(directory: dir.path, logger: Logger(label: "test"))
        guard let e = fresh.load(for: spec)?.first else { return nil }
        return e.view.text
    }

    @Test func laterTimelinesWaitForTheTimerAndOnlyTheNewestIsWritten() {
        let dir = TestDirectory(); defer { dir.remove() }
        let loop = VirtualLoop()
        let store = TimelineStore(directory: dir.path, logger: Logger(label: "test"))
        store.attach(loop: loop, saveDelay: 30)
        store.save(entries: [textEntry(t0, "first")], policy: nil, for: spec)
        #expect(onDisk(dir) == "first", "the first timeline of a run is written at once")
        for i in 1...5 {
            loop.advance(by: 1)
            store.save(entries: [textEntry(t0, "v\(i)")], policy: nil, for: spec)
        }
        #expect(store.writeCount == 1)
        #expect(onDisk(dir) == "first")
        #expect(store.load(for: spec)?.first?.view.text == "v5", "the store answers with the newest, written or not")
        loop.advance(by: 30)
        #expect(store.writeCount == 2, "five timelines, one write")
        #expect(onDisk(dir) == "v5")
        loop.advance(by: 120)
        #expect(store.writeCount == 2, "nothing waiting, nothing written")
    }

    @Test func closeWritesWhatIsWaiting() {
        let dir = TestDirectory(); defer { dir.remove() }
        let loop = VirtualLoop()
        let store = TimelineStore(directory: dir.path, logger: Logger(label: "test"))
        store.attach(loop: loop, saveDelay: 30)
        store.save(entries: [textEntry(t0, "first")], policy: nil, for: spec)
        store.save(entries: [textEntry(t0, "last")], policy: nil, for: spec)
        #expect(onDisk(dir) == "first")
        store.close()
        #expect(onDisk(dir) == "last")
    }

    @Test func aZeroDelayWritesEveryTimeline() {
        let dir = TestDirectory(); defer { dir.remove() }
        let loop = VirtualLoop()
        let store = TimelineStore(directory: dir.path, logger: Logger(label: "test"))
        store.attach(loop: loop, saveDelay: 0)
        for i in 0..<3 { store.save(entries: [textEntry(t0, "v\(i)")], policy: nil, for: spec) }
        #expect(store.writeCount == 3)
        #expect(onDisk(dir) == "v2")
    }
}
