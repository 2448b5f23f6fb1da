import OpenWidgetKit
import Testing
import WidgetConfigEditing

/// The tokenizer the edits stand on: every value's byte span, keys decoded.
@Suite struct JSONSourceReaderTests {
    @Test func valuesKnowTheirSpansAndKeysAreDecoded() throws {
        let text = #"{ "a\u0062": [1, "x\"y", {"k": null}], "c" : true }"#
        let bytes = Array(text.utf8)
        let v = try JSONSourceReader.read(bytes)
        #expect(v.range == 0..<bytes.count)
        #expect(v.members.map(\.key) == ["ab", "c"])
        let array = v.members[0].value
        #expect(String(decoding: bytes[array.range], as: UTF8.self) == #"[1, "x\"y", {"k": null}]"#)
        #expect(array.elements[1].stringValue == "x\"y")
        #expect(String(decoding: bytes[v.members[1].range], as: UTF8.self) == #""c" : true"#)
        #expect(v.member("c")?.value.kind == .literal("true"))
    }

    @Test func brokenTextIsRefusedWithWhere() {
        for (text, offset) in [(#"{"a": }"#, 6), (#"["x"#, 3), (#"{"a": 1} 2"#, 9), (#"{"a": "\q"}"#, 6)] {
            #expect(throws: JSONSourceReader.Failure.self, "\(text)") { try JSONSourceReader.read(Array(text.utf8)) }
            do { _ = try JSONSourceReader.read(Array(text.utf8)) } catch { #expect(error.offset == offset, "\(text): \(error)") }
        }
    }
}
