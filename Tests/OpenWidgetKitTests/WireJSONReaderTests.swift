import FoundationEssentials
import Testing
@testable import OpenWidgetKit

/// A node with every field of ViewNode and of the types under it set to a distinct value.
func everyFieldNode() -> ViewNode {
    var m = Modifiers()
    m.font = FontSpec(style: "system", size: 13, weight: "bold", design: "rounded", italic: true)
    m.weight = "heavy"; m.italic = false; m.monospacedDigit = true
    var gradient = StyleSpec(name: "orange"); gradient.gradient = [StyleSpec(name: "orange"), StyleSpec(rgba: [0, 0.5, 1, 1])]
    gradient.gradientPoints = [0, 0, 1, 1]; gradient.gradientKind = "radial"
    m.foreground = gradient; m.tint = StyleSpec(rgba: [0.1, 0.2, 0.3, 1]); m.background = StyleSpec(name: "blue", opacity: 0.5)
    m.padding = EdgeInsetsSpec(top: 1, leading: 2, bottom: 3, trailing: 4)
    m.frame = FrameSpec(width: 10, height: 11, minWidth: 1, maxWidth: .infinity, minHeight: 2, maxHeight: 30, alignment: "top")
    m.lineLimit = 2; m.minimumScaleFactor = 0.7; m.opacity = 0.9; m.rotation = -45.5e-3; m.widgetURL = "app://w"
    m.containerBackground = StyleSpec(name: "fill.tertiary"); m.redacted = true; m.privacySensitive = false
    m.accessibilityLabel = "label \"quoted\" é 👍🏽"; m.hidden = false; m.layoutPriority = 1.5; m.textAlignment = "center"
    m.other = ["shadow": .object(["radius": .number(2), "colors": .array([.string("a/b"), .null, .bool(true)])])]
    var shape = ShapeInfo(type: "roundedRectangle")
    shape.cornerRadius = 4; shape.fill = StyleSpec(name: "red"); shape.stroke = StyleSpec(name: "green")
    shape.lineWidth = 2; shape.lineCap = "round"; shape.trimFrom = 0.1; shape.trimTo = 0.9
    var n = ViewNode(kind: .gauge, children: [ViewNode(kind: .text), ViewNode(kind: .spacer)])
    n.role = "label"; n.text = "line\nnext\ttab \\ back \u{1} ctrl"
    n.date = DateText(style: "timer", date: Date(timeIntervalSince1970: 5.25), start: Date(timeIntervalSince1970: -1),
                      end: Date(timeIntervalSince1970: 1_900_000_000), countsDown: true)
    n.symbol = "star"; n.alignment = "leading"; n.spacing = 3; n.value = 0.25; n.bounds = [0, 2e21]; n.style = "linearCapacity"
    n.shape = shape; n.url = "app://u?x=1&y=2"; n.action = IntentAction(id: "0", intent: "I", parameters: ["p": .string("v"), "n": .number(-0.5)], title: "T")
    n.isOn = true; n.modifiers = m
    n.asset = ImageAsset(name: "art", variants: [ImageVariant(scale: 1, width: 2, height: 3, png: "iVBORw0KGgo="),
                                                 ImageVariant(scale: 2, appearance: "dark", width: 4, height: 6, jpeg: "/9j/4AAQ")])
    return n
}

/// The direct reader of plugin answers (issue 6) must give exactly what `JSONDecoder` gives, and
/// leave to it whatever it does not handle.
@Suite struct WireJSONReaderTests {
    /// JSONDecoder's verdict, then `WireValidation`'s (which `decodeResponse` applies either way).
    func viaJSONDecoder(_ data: Data) -> Result<WireResponse, any Error> {
        Result {
            let r = try WireCodec.decode(WireResponse.self, from: data)
            if let problem = WireValidation.problem(in: r) { throw WireValidationError(problem) }
            return r
        }
    }

    /// Both decoders agree: the same value, or both reject it.
    func agree(_ json: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let data = Data(json.utf8)
        let expected = viaJSONDecoder(data)
        let actual = Result { try WireCodec.decodeResponse(data) }
        switch (expected, actual) {
        case (.success(let e), .success(let a)): #expect(e == a, sourceLocation: sourceLocation)
        case (.failure, .failure): break
        default: Issue.record("JSONDecoder: \(expected), decodeResponse: \(actual)", sourceLocation: sourceLocation)
        }
    }

    @Test func aTimelineWithEveryFieldReadsDirectlyAndEqualsJSONDecoder() throws {
        let t0 = Date(timeIntervalSince1970: 1_800_000_000)
        let response = WireResponse(ok: true, entries: [WireEntry(date: t0, relevance: WireRelevance(score: 0.75, duration: 60), view: everyFieldNode()),
                                                        WireEntry(date: t0 + 0.5, view: ViewNode(kind: .text))],
                                    policy: WirePolicy(type: "after", date: t0 + 3600), reloadRequests: ["*", "other"])
        let data = try WireCodec.encode(response)
        #expect(try WireJSONReader.response(from: data) == response, "read directly, without the fallback")
        #expect(try WireCodec.decodeResponse(data) == response)
    }

    @Test func answersOfTheSDKRoundTripDirectly() throws {
        let v = VStack(alignment: .leading, spacing: 4) {
            Text("a").font(.headline).frame(maxWidth: .infinity)
            Text(Date(timeIntervalSince1970: 1_700_000_000), style: .relative)
            Gauge(value: 3, in: 0...10) { Text("g") } currentValueLabel: { Text("3") }
            Circle().stroke(.quaternary, lineWidth: 8)
            Spacer(minLength: 2)
            Divider()
        }.padding().containerBackground(.fill.tertiary, for: .widget)
        let response = WireResponse(ok: true, entries: [WireEntry(date: Date(timeIntervalSince1970: 0), view: eval(v))], policy: WirePolicy(type: "never"))
        #expect(try WireJSONReader.response(from: try WireCodec.encode(response)) == response)
    }

    @Test(arguments: [
        #"{"ok":true,"entries":[{"date":1800000000,"view":{"kind":"text","text":"caf\u00e9 \ud83d\ude00 \/ \" \\ \b\f\n\r\t"}}]}"#,
        #" { "ok" : true , "entries" : [ { "view" : { "text" : "x" , "kind" : "hstack" } , "date" : -12.5e2 } ] , "policy" : null } "#,
        #"{"ok":true,"entries":[{"date":1,"view":{"kind":"sparkles","children":[{"kind":"text"}],"future":{"a":[1,{"b":null}],"c":"d"}}}]}"#,
        #"{"ok":true,"entries":[{"date":1,"view":{"kind":"gauge","value":"inf","bounds":["-inf",1E3],"spacing":null}}]}"#,
        #"{"ok":true,"entries":[{"date":1,"view":{"kind":"text","modifiers":{"frame":{"maxWidth":"inf","minWidth":"-inf"}}}}]}"#,
        #"{"ok":true,"entries":[{"date":1,"view":{"kind":"gauge","value":0.5,"bounds":[-1,1E3],"modifiers":{"frame":{"maxWidth":"inf"}}}}]}"#,
        #"{"ok":true,"entries":[{"date":1,"view":{"kind":"text","modifiers":{"lineLimit":2,"other":{"x":"inf","y":[true,false,null]}}}}]}"#,
        #"{"ok":false,"error":"boom","entries":null}"#,
        #"{"ok":true,"entries":[],"reloadRequests":[],"policy":{"type":"atEnd"}}"#,
        #"{"ok":true,"manifest":{"bundleId":"b","sdkVersion":"1","abiVersion":1,"widgets":[],"appGroups":["g"]}}"#,
        #"{"ok":true,"manifest":{"bundleId":"b","sdkVersion":"1","abiVersion":1,"widgets":[],"appGroups":[],"previews":null,"permissions":null,"x":{"y":[1]}}}"#,
        #"{"ok":true,"manifest":{"bundleId":"b","sdkVersion":"1","abiVersion":1,"appGroups":[],"widgets":[{"kind":"k","displayName":"K","description":"","families":["systemSmall","accessoryInline"],"configuration":"StaticConfiguration","parameters":[{"name":"n","title":"N","type":"enum","defaultValue":null,"options":[{"value":"a","title":"A"}]},{"name":"m","title":"M","type":"double","defaultValue":{"v":[1.5,"inf",null]}}]}]}}"#,
        #"{"ok":true,"manifest":null}"#,
        // Declined by the reader, decided by JSONDecoder:
        #"{"ok":true,"manifest":{"bundleId":"b","sdkVersion":"1","abiVersion":1,"widgets":[{"kind":"k","displayName":"K","description":"","families":["huge"],"parameters":[],"configuration":"c"}],"appGroups":[]}}"#,
        #"{"ok":true,"manifest":{"bundleId":"b","sdkVersion":"1","abiVersion":1.5,"widgets":[],"appGroups":[]}}"#,
        #"{"ok":true,"manifest":{"bundleId":"b","sdkVersion":"1","abiVersion":1,"widgets":[]}}"#,
        #"{"ok":true,"manifest":{"bundleId":null,"sdkVersion":"1","abiVersion":1,"widgets":[],"appGroups":[]}}"#,
        #"{"ok":true,"manifest":{"bundleId":"b","sdkVersion":"1","abiVersion":1,"widgets":[],"appGroups":[],"previews":[{"id":"0","name":"p","family":"tiny"}]}}"#,
        #"{"ok":true,"manifest":{"bundleId":"b","sdkVersion":"1","abiVersion":1,"widgets":[{"kind":"k","displayName":"K","description":"","families":[],"parameters":[{"name":"n","type":"bool"}],"configuration":"c"}],"appGroups":[]}}"#,
        #"{"ok":true,"entries":[{"date":1,"view":{"kind":"text","modifiers":{"lineLimit":2.0}}}]}"#,
        #"{"ok":true,"entries":[{"date":1,"view":{"kind":"text","modifiers":{"lineLimit":2.5}}}]}"#,
        #"{"ok":true,"entries":[{"date":"1","view":{"kind":"text"}}]}"#,
        #"{"ok":true,"entries":[{"date":1,"view":{"kind":"text","text":"\ud800"}}]}"#,
        #"{"ok":true,"entries":[{"date":1,"view":{"text":"no kind"}}]}"#,
        #"{"ok":true,"entries":[{"date":1,"view":{"kind":"text"}}]"#,
        #"{"ok":true} trailing"#,
        #"{"ok":true,"entries":[{"date":01,"view":{"kind":"text"}}]}"#,
        #"{"ok":true,"entries":[{"date":1.,"view":{"kind":"text"}}]}"#,
        #"{"ok":true,"entries":[{"date":-,"view":{"kind":"text"}}]}"#,
        #"{"ok":true,"entries":[{"date":1e400,"view":{"kind":"text"}}]}"#,
        #"{"ok":true,"ok":false}"#,
        #"{"ok":true,"entries":[{"date":1,"view":{"kind":"text","text":"a","text":"b"}}]}"#,
        #"{"ok":"yes"}"#,
        #"{"entries":[]}"#,
        #"[]"#,
        "",
    ])
    func agreesWithJSONDecoder(_ json: String) {
        agree(json)
    }

    /// `describe`, asked at every worker start, is read directly too (issue 16).
    @Test func aManifestWithEveryFieldReadsDirectlyAndEqualsJSONDecoder() throws {
        let manifest = BundleManifest(
            bundleId: "org.example.b", sdkVersion: openWidgetKitVersion, abiVersion: 1,
            widgets: [
                WidgetDescriptor(kind: "Clock", displayName: "Clock \"é\"", description: "line\nnext", families: [.systemSmall, .accessoryInline],
                                 parameters: [ParameterDescriptor(name: "zone", title: "Zone", type: "enum", defaultValue: .string("utc"),
                                                                  options: [EnumOption(value: "utc", title: "UTC"), EnumOption(value: "local", title: "Local")]),
                                              ParameterDescriptor(name: "n", title: "N", type: "double", defaultValue: .object(["a": .array([.number(1), .null, .bool(true)])])),
                                              ParameterDescriptor(name: "plain", title: "Plain", type: "string")],
                                 configuration: "AppIntentConfiguration"),
                WidgetDescriptor(kind: "Other", displayName: "O", description: "", families: [], parameters: [], configuration: "StaticConfiguration"),
            ],
            appGroups: ["group.a", "group.b"],
            previews: [PreviewDescriptor(id: "0", name: "Clock", kind: "Clock", family: .systemSmall), PreviewDescriptor(id: "1", name: "view", kind: nil, family: nil)],
            permissions: ["network"], busNames: ["org.mpris.MediaPlayer2.*"],
            busSignals: [BusSignal(sender: "org.mpris.MediaPlayer2.*", interface: "org.freedesktop.DBus.Properties", member: "PropertiesChanged",
                                   path: "/org/mpris/MediaPlayer2"),
                         BusSignal(sender: "org.freedesktop.UPower", interface: "org.freedesktop.UPower", member: "DeviceAdded", bus: "system")],
            systemBusNames: ["org.freedesktop.UPower"])
        let response = WireResponse(ok: true, manifest: manifest)
        let data = try WireCodec.encode(response)
        #expect(try WireJSONReader.response(from: data) == response, "read directly, without the fallback")
        #expect(try WireCodec.decodeResponse(data) == response)
        #expect(try WireCodec.decode(WireResponse.self, from: data) == response)
    }

    @Test func invalidUTF8AndDeepNestingAreLeftToJSONDecoder() {
        let bytes = Array(#"{"ok":true,"error":"x"#.utf8) + [0xff, 0xfe] + Array(#""}"#.utf8)
        #expect(throws: (any Error).self) { try WireJSONReader.response(from: Data(bytes)) }
        agree(String(decoding: bytes, as: UTF8.self))
        let deep = String(repeating: #"{"kind":"group","children":["#, count: 600) + #"{"kind":"text"}"# + String(repeating: "]}", count: 600)
        let json = #"{"ok":true,"entries":[{"date":1,"view":"# + deep + "}]}"
        #expect(throws: (any Error).self) { try WireJSONReader.response(from: Data(json.utf8)) }
        agree(json)
    }
}

/// The direct writer (issue 6) must write what decodes to the value written; for these trees it
/// writes exactly what `WireCodec.encode` (JSONEncoder, sorted keys) writes.
@Suite struct WireJSONWriterTests {
    let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func everyFieldIsWrittenAsJSONEncoderWritesIt() throws {
        let response = WireResponse(ok: true, entries: [WireEntry(date: t0, relevance: WireRelevance(score: 0.75, duration: 60), view: everyFieldNode()),
                                                        WireEntry(date: t0 + 0.5, view: ViewNode(kind: .text))],
                                    policy: WirePolicy(type: "after", date: t0 + 3600), reloadRequests: ["*"])
        let written = try #require(WireJSONWriter.response(response))
        #expect(String(decoding: written, as: UTF8.self) == String(decoding: try WireCodec.encode(response), as: UTF8.self))
        #expect(try WireCodec.decode(WireResponse.self, from: written) == response)
        #expect(try WireJSONReader.response(from: written) == response)
    }

    @Test(arguments: [0.1, -0.0, 1e-7, 123456789.125, 1e15, 1e16, 2.5e-300, .greatestFiniteMagnitude, .infinity, -.infinity])
    func numbersDecodeToTheValueWritten(_ x: Double) throws {
        var v = ViewNode(kind: .progress)
        v.value = x
        let response = WireResponse(ok: true, entries: [WireEntry(date: Date(timeIntervalSince1970: x.isFinite ? x : 0), view: v)])
        let written = try #require(WireJSONWriter.response(response))
        let back = try WireCodec.decode(WireResponse.self, from: written)
        #expect(back == response)
        #expect(back.entries?.first?.view.value?.sign == x.sign)
    }

    @Test func nanIsWrittenAsTheWireSpellsIt() throws {
        var v = ViewNode(kind: .progress)
        v.value = .nan
        let written = try #require(WireJSONWriter.response(WireResponse(ok: true, entries: [WireEntry(date: t0, view: v)])))
        #expect(String(decoding: written, as: UTF8.self).contains(#""value":"nan""#))
        #expect(try WireCodec.decode(WireResponse.self, from: written).entries?.first?.view.value?.isNaN == true)
    }

    /// Requests are written directly (`WireCodec.encodeRequest`): byte for byte what
    /// `JSONEncoder` writes, for every op and every optional field, escapes included.
    @Test func requestsAreWrittenAsJSONEncoderWritesThem() throws {
        let requests = [
            WireRequest(op: .describe),
            WireRequest(op: .timeline, kind: "clock", family: .accessoryInline),
            WireRequest(op: .snapshot, kind: "k\"q\\/é\n", family: .systemMedium, displaySize: DisplaySize(width: 329.5, height: 155),
                        configuration: ["b": .bool(true), "a": .number(2.5), "s": .string("x/y"), "n": .null,
                                        "o": .object(["z": .array([.number(1), .string("\u{1}")])])],
                        isPreview: false),
            WireRequest(op: .perform, kind: "habit", family: .systemSmall, isPreview: true,
                        action: IntentAction(id: "0", intent: "Toggle", parameters: ["day": .number(3)], title: "Done")),
            WireRequest(op: .perform, kind: "habit", action: IntentAction(id: "1.2", intent: "Toggle", parameters: [:])),
            WireRequest(op: .preview, kind: "p1"),
        ]
        for r in requests {
            let written = WireCodec.encodeRequest(r)
            #expect(String(decoding: written, as: UTF8.self) == String(decoding: try WireCodec.encode(r), as: UTF8.self))
            #expect(try WireCodec.decode(WireRequest.self, from: written) == r)
        }
    }

    @Test func aManifestIsLeftToJSONEncoder() {
        let m = BundleManifest(bundleId: "b", sdkVersion: "1", abiVersion: 1, widgets: [], appGroups: [])
        #expect(WireJSONWriter.response(WireResponse(ok: true, manifest: m)) == nil)
    }
}
