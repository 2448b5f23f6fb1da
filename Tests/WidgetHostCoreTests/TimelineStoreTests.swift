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

    /// A state file with a "nan" date (saved by a host that did not validate) killed every
    /// restart in `showSavedTimelines` (issue 15): now it is set aside, logged, and never read.
    @Test func aSavedTimelineThatDoesNotValidateIsSetAside() throws {
        let dir = TestDirectory(); defer { dir.remove() }
        let plugins = TestDirectory(); defer { plugins.remove() }
        try FileIO.writeAtomically(Data("elf".utf8), to: plugins.path + "/b.so")
        let poisoned = #"{"bundle":"b.so","entries":[{"date":"nan","view":{"kind":"text","text":"x"}}],"family":"systemSmall","kind":"k","parameters":{}}"#
        let badPolicy = #"{"bundle":"b.so","entries":[{"date":1,"view":{"kind":"text"}}],"family":"systemSmall","kind":"k","parameters":{},"policy":{"type":"after","date":"inf"}}"#
        try FileIO.writeAtomically(Data(poisoned.utf8), to: dir.path + "/w.json")
        try FileIO.writeAtomically(Data(badPolicy.utf8), to: dir.path + "/v.json")
        try FileIO.writeAtomically(Data("{\"bundle\":".utf8), to: dir.path + "/torn.json")
        let store = TimelineStore(directory: dir.path, logger: Logger(label: "test"))
        #expect(store.saved(pluginDirectory: plugins.path).isEmpty)
        #expect(store.load(for: spec) == nil)
        let names = Set(FileIO.list(dir.path) ?? [])
        #expect(names == ["w.json.rejected", "v.json.rejected", "torn.json.rejected"], "\(names)")
        // A good timeline saved afterwards is read back as before.
        store.save(entries: [textEntry(t0, "good")], policy: nil, for: spec)
        #expect(onDisk(dir) == "good")
    }

    /// Saved timelines are read at start by the direct reader (issue 16), which must give what
    /// `JSONDecoder` gives for every member, and leave to it what it does not know.
    @Test func theDirectReaderReadsARecordAsJSONDecoderDoes() throws {
        var node = ViewNode(kind: .vstack)
        node.children = [textEntry(t0, "a \"quoted\" ✓").view, textEntry(t0, "b").view]
        let r = TimelineStore.Record(bundle: "b.so", kind: "k", family: "systemSmall", parameters: ["n": .number(2), "s": .string("x")],
                                     entries: [WireEntry(date: t0, view: node), textEntry(t0.addingTimeInterval(60), "next")],
                                     policy: WirePolicy(type: "after", date: t0.addingTimeInterval(300)), outputs: ["txt", "stdout"],
                                     appGroups: ["group.x"])
        let data = r.json()
        let direct = try #require(TimelineStore.Record.direct(data))
        let reference = try WireCodec.decode(TimelineStore.Record.self, from: data)
        for x in [direct, reference] {
            #expect(x.bundle == r.bundle && x.kind == r.kind && x.family == r.family && x.parameters == r.parameters)
            #expect(x.entries == r.entries && x.policy == r.policy && x.outputs == r.outputs && x.appGroups == r.appGroups)
        }
        var minimal = r; minimal.policy = nil; minimal.outputs = nil; minimal.appGroups = nil
        let m = try #require(TimelineStore.Record.direct(minimal.json()))
        #expect(m.policy == nil && m.outputs == nil && m.appGroups == nil && m.entries == r.entries)
        // What the reader does not know is left to JSONDecoder: a number where a string goes,
        // a string where a list goes, a member missing.
        #expect(TimelineStore.Record.direct(Data(#"{"bundle":1,"kind":"k","family":"f","parameters":{},"entries":[]}"#.utf8)) == nil)
        #expect(TimelineStore.Record.direct(Data(#"{"bundle":"b","kind":"k","family":"f","parameters":{},"entries":[],"outputs":"txt"}"#.utf8)) == nil)
        #expect(TimelineStore.Record.direct(Data(#"{"bundle":"b","kind":"k","family":"f","entries":[]}"#.utf8)) == nil)
    }
}
