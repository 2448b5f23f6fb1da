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
        let pa = try memo.encode(a), pb = try memo.encode(b)
        #expect(try memo.encode(a) == pa)
        #expect(try memo.decode(answer("one"), answering: a, payload: pa).entries?.first?.view.text == "one")
        #expect(try memo.decode(answer("one"), answering: a, payload: pa).entries?.first?.view.text == "one")
        #expect(memo.decodes == 1 && memo.hits == 1)
        // The same bytes answering another request, and new bytes for the first, are decoded.
        #expect(try memo.decode(answer("one"), answering: b, payload: pb).entries?.first?.view.text == "one")
        #expect(try memo.decode(answer("two"), answering: a, payload: pa).entries?.first?.view.text == "two")
        #expect(memo.decodes == 3 && memo.hits == 1)
    }

    @Test func otherOperationsAreNotRemembered() throws {
        var memo = WireAnswerMemo()
        let d = WireRequest(op: .describe)
        let p = try memo.encode(d)
        let bytes = try WireCodec.encode(WireResponse.failure("no"))
        _ = try memo.decode(bytes, answering: d, payload: p)
        _ = try memo.decode(bytes, answering: d, payload: p)
        #expect(memo.hits == 0)
    }

    @Test func aMalformedAnswerStillFailsAfterAGoodOne() throws {
        var memo = WireAnswerMemo()
        let a = WireRequest(op: .timeline, kind: "a", family: .systemSmall)
        let pa = try memo.encode(a)
        _ = try memo.decode(answer("one"), answering: a, payload: pa)
        #expect(throws: (any Error).self) { try memo.decode(Data("{\"entries\":[".utf8), answering: a, payload: pa) }
    }

    @Test func memoryStaysWithinCapacity() throws {
        var memo = WireAnswerMemo(capacity: 3)
        for i in 0..<10 {
            let r = WireRequest(op: .timeline, kind: "k\(i)", family: .systemSmall)
            let p = try memo.encode(r)
            _ = try memo.decode(answer("x"), answering: r, payload: p)
        }
        #expect(memo.remembered <= 3)
    }
}
