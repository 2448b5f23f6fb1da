import FoundationEssentials
import Testing
@testable import WidgetHostCore

/// `WidgetOutput.jsonData()` is written directly for speed (issue 6); these check it against
/// `JSONEncoder` with sorted keys, the encoder it replaced, which status-bar scripts were reading.
@Suite struct WidgetOutputJSONTests {
    static let awkward = ["", "plain", "a/b \"quoted\" back\\slash", "tab\tnew\nline\rcr\u{8}\u{c}", "\u{1}\u{1f}\u{7f}",
                          "é ü 漢字 👍🏽", "\u{2028}\u{2029}", "{\"json\":[1,2]}"]

    func reference(_ o: WidgetOutput) -> Data {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try! e.encode(o)
    }

    @Test(arguments: awkward)
    func everyFieldMatchesJSONEncoderByteForByte(_ s: String) {
        let full = WidgetOutput(id: "id-\(s)", text: s, alt: s, tooltip: s, class: [s, "x"], percentage: -7, kind: s, family: "systemSmall",
                                date: "2026-11-21T10:00:00Z", url: "https://e.org/\(s)", stale: true, error: s, removed: false, pango: s)
        #expect(String(decoding: full.jsonData(), as: UTF8.self) == String(decoding: reference(full), as: UTF8.self))
        let minimal = WidgetOutput(id: "m", text: s, kind: "k", family: "accessoryInline")
        #expect(String(decoding: minimal.jsonData(), as: UTF8.self) == String(decoding: reference(minimal), as: UTF8.self))
    }

    @Test(arguments: [0.0, 1.0, -3.0, 0.75, 0.1, 123456789.125, 1e-7, 1e20, 12.5])
    func relevanceDecodesToTheSameValue(_ score: Double) throws {
        let o = WidgetOutput(id: "r", text: "t", kind: "k", family: "f", relevance: score)
        let back = try JSONDecoder().decode(WidgetOutput.self, from: o.jsonData())
        #expect(back == o)
        if score == score.rounded() && abs(score) < 1e15 {
            #expect(o.jsonData() == reference(o), "integral scores are written as JSONEncoder writes them")
        }
    }

    @Test func aNonFiniteRelevanceIsLeftOutNotABrokenFile() throws {
        let o = WidgetOutput(id: "r", text: "t", kind: "k", family: "f", relevance: .infinity)
        let back = try JSONDecoder().decode(WidgetOutput.self, from: o.jsonData())
        #expect(back.relevance == nil)
        #expect(back.text == "t")
    }

    @Test(arguments: [0.0, 1_800_000_000, 1_800_000_000.999, 1_795_297_768.5, -1.5, 86_399, 951_782_400, 4_102_444_800, 253_402_300_799])
    func isoDatesMatchTheFormatStyle(_ seconds: Double) {
        let d = Date(timeIntervalSince1970: seconds)
        #expect(WidgetOutput.isoDate(d) == d.formatted(.iso8601))
    }
}
