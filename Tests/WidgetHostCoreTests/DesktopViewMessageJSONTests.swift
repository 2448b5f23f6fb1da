import FoundationEssentials
import OpenWidgetKit
import Testing
@testable import WidgetHostCore

/// The view stream's direct writer and reader (`DesktopViewMessageJSON`) against `WireCodec`'s
/// `JSONEncoder`/`JSONDecoder`: the same bytes written, the same message read, for a tree with
/// every field of the schema (`WireSchemaSampler`), and the reader declining what `JSONDecoder`
/// must judge (so the decoder's errors stay `JSONDecoder`'s).
@Suite struct DesktopViewMessageJSONTests {
    static func messages() throws -> [DesktopViewMessage] {
        let full = try WireSchemaSampler.sample(ViewNode.self)
        var text = ViewNode(kind: .text)
        text.text = "12:00:01 — ünïcødé \"quoted\" / \\ \u{1}"
        let clock = DesktopViewMessage.Widget(id: "clock", kind: "clock", family: .systemSmall, view: text,
                                              entryDate: Date(timeIntervalSince1970: 1_800_000_000), stale: false, running: true)
        let sampled = DesktopViewMessage.Widget(id: "all-fields", kind: "k", family: .accessoryRectangular, view: full,
                                                entryDate: Date(timeIntervalSince1970: 1_800_000_000.25), stale: true, running: false)
        let empty = DesktopViewMessage.Widget(id: "waiting", kind: "w", family: .systemLarge, view: nil, entryDate: nil, stale: false, running: true)
        return [
            DesktopViewMessage(snapshot: true, layout: .init(widgets: ["clock", "all-fields", "waiting"], anchor: "top-right", margin: 32,
                                                             gap: 22.5, columns: 2, scale: 1.25, dark: nil),
                               widgets: [clock, sampled, empty], removed: []),
            DesktopViewMessage(snapshot: true, layout: .init(widgets: [], anchor: "bottom-left", margin: 0, gap: 0, columns: 4, scale: 2, dark: true),
                               widgets: [], removed: []),
            // Monitors chosen per group and per widget (`desktop.output`, `desktop.outputs`).
            DesktopViewMessage(snapshot: true, layout: .init(widgets: ["clock"], anchor: "top-left", margin: 8, gap: 22, columns: 2, scale: 1, dark: false,
                                                             output: "all", outputs: ["clock": "DP-1", "zeta \"quoted\"": "Dell Inc. U2720Q ABC"]),
                               widgets: [clock], removed: []),
            DesktopViewMessage(snapshot: false, layout: nil, widgets: [clock], removed: []),
            DesktopViewMessage(snapshot: false, layout: nil, widgets: [], removed: ["gone", "also-gone"]),
        ]
    }

    @Test func writesWhatJSONEncoderWritesAndReadsWhatJSONDecoderReads() throws {
        for m in try Self.messages() {
            let line = DesktopViewMessageJSON.line(m)
            let reference = Array(try WireCodec.encode(m)) + [0x0A]
            #expect(line == reference, "\(String(decoding: line, as: UTF8.self))\n\(String(decoding: reference, as: UTF8.self))")
            let body = Array(line.dropLast())
            let direct = try #require(DesktopViewMessageJSON.message(body), "declined \(String(decoding: body, as: UTF8.self))")
            #expect(direct == m)
            #expect(direct == (try WireCodec.decode(DesktopViewMessage.self, from: Data(body))))
            // The stream decoder (direct first) gives the same message.
            var decoder = DesktopViewStreamDecoder()
            #expect(try decoder.feed(line) == [m])
        }
    }

    /// Key order, spacing, `null` for an absent optional and unknown keys are read as
    /// `JSONDecoder` reads them.
    @Test func readsAnotherWritersSpellingOfTheSameMessage() throws {
        let text = #" { "widgets" : [ { "view" : { "text" : "hi" , "kind" : "text" } , "stale" : false , "running" : true , "kind" : "c" , "id" : "a" , "family" : "systemSmall" , "entryDate" : null , "extra" : [1, {"x": null}] } ] , "removed" : [ ] , "layout" : null , "snapshot" : false } "#
        let bytes = Array(text.utf8)
        let direct = try #require(DesktopViewMessageJSON.message(bytes))
        #expect(direct == (try WireCodec.decode(DesktopViewMessage.self, from: Data(bytes))))
        #expect(direct.widgets.first?.view?.text == "hi" && direct.widgets.first?.entryDate == nil && direct.layout == nil)
    }

    /// What `JSONDecoder` refuses, or reads otherwise, the direct reader declines, so the
    /// decoder's verdict is `JSONDecoder`'s: a malformed line is reported, a refusal thrown.
    @Test func declinesWhatJSONDecoderMustJudge() throws {
        let declined = [
            #"{"removed":[],"snapshot":false,"widgets":[{"family":"systemHuge","id":"a","kind":"c","running":true,"stale":false}]}"#,
            #"{"layout":{"anchor":"top-right","columns":2.5,"gap":0,"margin":0,"scale":1,"widgets":[]},"removed":[],"snapshot":true,"widgets":[]}"#,
            #"{"removed":[],"widgets":[]}"#,
            #"{"removed":[],"snapshot":"yes","widgets":[]}"#,
            #"{"removed":[],"snapshot":false,"widgets":[{"family":"systemSmall","id":"a","kind":"c","stale":false}]}"#,
            #"{"removed":[],"snapshot":false,"widgets":[]} trailing"#,
            #"{"ok":false,"error":"refused: 8 view stream subscribers are connected"}"#,
        ]
        for text in declined {
            #expect(DesktopViewMessageJSON.message(Array(text.utf8)) == nil, "\(text)")
        }
        var decoder = DesktopViewStreamDecoder()
        #expect(throws: DesktopViewStreamDecoder.Malformed.self) { try decoder.feed(Array((declined[0] + "\n").utf8)) }
        var refused = DesktopViewStreamDecoder()
        #expect(throws: DesktopViewStreamDecoder.Refused.self) { try refused.feed(Array((declined[6] + "\n").utf8)) }
    }
}
