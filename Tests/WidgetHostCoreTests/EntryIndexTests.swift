import FoundationEssentials
import OpenWidgetKit
import Testing
@testable import WidgetHostCore

/// The entry on screen is found by halves in a timeline kept sorted (issue 16); it is the one
/// `lastIndex(where: date <= now) ?? 0` finds, on every instant around every entry.
@Suite struct EntryIndexTests {
    func entry(_ t: Double, _ text: String) -> WireEntry {
        var v = ViewNode(kind: .text); v.text = text
        return WireEntry(date: Date(timeIntervalSince1970: t), view: v)
    }

    @Test func theEntryOnScreenIsTheLastDatedAtOrBeforeNow() {
        let inst = WidgetInstance(spec: InstanceSpec(id: "w", bundleName: "b.so", kind: "k", family: .accessoryInline))
        #expect(inst.entryIndex(at: Date(timeIntervalSince1970: 5)) == nil)
        // Out of order and with a repeated date, as a plugin may send them.
        inst.entries = [entry(30, "c"), entry(10, "a"), entry(20, "b1"), entry(20, "b2"), entry(40, "d")]
        #expect(inst.entries.map(\.date.timeIntervalSince1970) == [10, 20, 20, 30, 40])
        for t in stride(from: 0.0, through: 50, by: 0.5) {
            let now = Date(timeIntervalSince1970: t)
            #expect(inst.entryIndex(at: now) == (inst.entries.lastIndex { $0.date <= now } ?? 0), "at \(t)")
        }
        #expect(inst.entryIndex(at: Date(timeIntervalSince1970: 20)) == 2)
        inst.entries = [entry(10, "only")]
        #expect(inst.entryIndex(at: Date(timeIntervalSince1970: 0)) == 0)
        #expect(inst.entryIndex(at: Date(timeIntervalSince1970: 99)) == 0)
    }
}
