import FoundationEssentials
import OpenWidgetKit
import Testing
@testable import WidgetHostCore

/// The worker connection's codec memory (issue 6): the same answer to the same request is
/// decoded once; anything else is decoded as before.
@Suite struct WireAnswerMemoTests {
    let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    func answer(_ text: String) -> Data {
        try! WireCodec.encode(WireResponse(ok: true, entries: [textEntry(t0, text)], policy: WirePolicy(type: "never")))
    }

    @Test func theSameAnswerToTheSameRequestIsDecodedOnce() throws {
        var memo = WireAnswerMemo()
        let a = WireRequest(op: .timeline, kind: "a", family: .systemSmall)
        let b = WireRequest(op: .timeline, kind: "b", family: .systemSmall)
        let pa = memo.encode(a)
        _ = memo.encode(b)
        #expect(memo.encode(a) == pa)
        #expect(try memo.decode(answer("one"), answering: a).entries?.first?.view.text == "one")
        #expect(try memo.decode(answer("one"), answering: a).entries?.first?.view.text == "one")
        #expect(memo.decodes == 1 && memo.hits == 1)
        // The same bytes answering another request, and new bytes for the first, are decoded.
        #expect(try memo.decode(answer("one"), answering: b).entries?.first?.view.text == "one")
        #expect(try memo.decode(answer("two"), answering: a).entries?.first?.view.text == "two")
        #expect(memo.decodes == 3 && memo.hits == 1)
    }

    @Test func otherOperationsAreNotRemembered() throws {
        var memo = WireAnswerMemo()
        let d = WireRequest(op: .describe)
        _ = memo.encode(d)
        let bytes = try WireCodec.encode(WireResponse.failure("no"))
        _ = try memo.decode(bytes, answering: d)
        _ = try memo.decode(bytes, answering: d)
        #expect(memo.hits == 0)
    }

    @Test func aMalformedAnswerStillFailsAfterAGoodOne() throws {
        var memo = WireAnswerMemo()
        let a = WireRequest(op: .timeline, kind: "a", family: .systemSmall)
        _ = memo.encode(a)
        _ = try memo.decode(answer("one"), answering: a)
        #expect(throws: (any Error).self) { try memo.decode(Data("{\"entries\":[".utf8), answering: a) }
    }

    /// A clock's 60-entry timeline asked again a second later (a container change reloads the
    /// whole bundle, issue 16): 59 entries are taken from the last answer, one is decoded, and the
    /// response is exactly what a fresh decode gives.
    @Test func aTimelineThatStartsLaterTakesTheEntriesItShares() throws {
        func clock(from start: Int, count: Int = 60, bad: Int? = nil) -> Data {
            // The C benchmark plugin's bytes (keys sorted, no spaces), one entry per second.
            let entries = (start..<start + count).map { t in
                #"{"date":\#(t == bad ? #""nan""# : "\(t)"),"view":{"kind":"text","text":"clock \#(t)"}}"#
            }
            return Data(#"{"entries":[\#(entries.joined(separator: ","))],"ok":true,"policy":{"type":"atEnd"}}"#.utf8)
        }
        var memo = WireAnswerMemo()
        let a = WireRequest(op: .timeline, kind: "clock", family: .accessoryInline)
        _ = memo.encode(a)
        _ = try memo.decode(clock(from: 1_800_000_000), answering: a)
        #expect(memo.takenEntries == 0)
        let later = clock(from: 1_800_000_001)
        let r = try memo.decode(later, answering: a)
        #expect(memo.takenEntries == 59 && memo.decodes == 2)
        #expect(r == (try WireCodec.decodeResponse(later)), "the same response as decoded afresh")
        let fiveLater = clock(from: 1_800_000_006)
        #expect(try memo.decode(fiveLater, answering: a) == (try WireCodec.decodeResponse(fiveLater)))
        #expect(memo.takenEntries == 59 + 55)
        // An answer sharing nothing is decoded whole; a bad number among new entries still fails.
        let other = clock(from: 1_900_000_000)
        #expect(try memo.decode(other, answering: a) == (try WireCodec.decodeResponse(other)))
        #expect(memo.takenEntries == 59 + 55)
        #expect(throws: WireValidationError.self) { try memo.decode(clock(from: 1_900_000_001, bad: 1_900_000_060), answering: a) }
        // Fewer entries, one changed in the middle: the rest is still exact.
        var changed = String(decoding: clock(from: 1_900_000_000, count: 10), as: UTF8.self)
        changed = changed.replacing("clock 1900000005", with: "clock five")
        let c = Data(changed.utf8)
        #expect(try memo.decode(c, answering: a) == (try WireCodec.decodeResponse(c)))
    }

    @Test func memoryStaysWithinCapacity() throws {
        var memo = WireAnswerMemo(capacity: 3)
        for i in 0..<10 {
            let r = WireRequest(op: .timeline, kind: "k\(i)", family: .systemSmall)
            _ = memo.encode(r)
            _ = try memo.decode(answer("x"), answering: r)
        }
        #expect(memo.remembered <= 3)
    }
}
