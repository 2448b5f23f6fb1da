import FoundationEssentials
import Testing
@testable import OpenWidgetKit

/// Every numeric field of the wire schema, found by walking its `Codable` conformances
/// (`WireSchemaSampler`, not a list kept by hand), is fed NaN, ±inf, 0, negative and huge
/// values; each answer must be refused with a `WireValidationError` naming the field, or hold
/// only numbers the renderers are built for (issue 23: a grid item's `"nan"` minimum, and
/// `horizontalSpacing`, gradient points, `kerning`, `tracking` and `aspectRatio`, were not
/// checked). A numeric field added to the schema later without a rule fails here.
@Suite struct WireSchemaTests {
    static let fields = (try? WireSchemaSampler.numericFields(of: WireResponse.self)) ?? []

    static let hostileDoubles: [Double] = [.nan, .infinity, -.infinity, 0, -1, 1e-300, -1e300, 1e300, 1e12,
                                           .greatestFiniteMagnitude, -.greatestFiniteMagnitude]
    static let hostileIntegers: [Int] = [0, -1, .min, .max]

    /// The wire's encoder, but a date's seconds spelled as any other double ("nan", "inf"), as
    /// a plugin writing its own bytes may (`JSONEncoder` refuses to encode such a date).
    static func encode(_ r: WireResponse) throws -> Data {
        let e = WireCodec.encoder()
        e.dateEncodingStrategy = .custom { date, encoder in
            var c = encoder.singleValueContainer()
            try c.encode(date.timeIntervalSince1970)
        }
        return try e.encode(r)
    }

    /// The numbers to feed `field`.
    static func values(for field: WireSchemaSampler.Field) -> [WireSchemaSampler.Number] {
        field.kind == .integer ? hostileIntegers.map { .integer($0) } : hostileDoubles.map { .double($0) }
    }

    /// May an answer with `v` in a double field named `name` be accepted? Only a finite number
    /// within ±10¹⁰⁰, or `+inf` where SwiftUI takes `.infinity` (a frame's or grid item's maximum).
    static func acceptable(_ v: Double, name: String) -> Bool {
        if v == .infinity { return ["maxWidth", "maxHeight", "maximum"].contains(name) }
        return v.isFinite && abs(v) <= WireValidation.maxMagnitude
    }

    @Test func theWalkFindsEveryKindOfNumber() throws {
        _ = try WireSchemaSampler.numericFields(of: WireResponse.self)  // throws where a type's keys cannot be listed
        let paths = Set(Self.fields.map(\.description))
        for expected in ["policy.date", "entries.0.date", "entries.0.relevance.score", "entries.0.view.gridItems.0.minimum",
                         "entries.0.view.gridItems.0.spacing", "entries.0.view.horizontalSpacing", "entries.0.view.modifiers.kerning",
                         "entries.0.view.modifiers.tracking", "entries.0.view.modifiers.aspectRatio",
                         "entries.0.view.modifiers.foreground.gradientPoints.0", "entries.0.view.modifiers.other.k",
                         "entries.0.view.modifiers.lineLimit", "entries.0.view.children.0.shape.fill.gradient.0.rgba.0",
                         "entries.0.view.date.start", "manifest.abiVersion", "manifest.widgets.0.parameters.0.defaultValue"] {
            #expect(paths.contains(expected), "\(expected) not found among \(paths.sorted())")
        }
        #expect(Self.fields.count > 100, "\(Self.fields.count)")
    }

    @Test(arguments: Self.fields)
    func everyNumericFieldIsRefusedOrSafe(_ field: WireSchemaSampler.Field) throws {
        for v in Self.values(for: field) {
            let data = try Self.encode(try WireSchemaSampler.sample(WireResponse.self, setting: field, to: v))
            let reads: [(String, Result<WireResponse, any Error>)] = [
                ("decodeResponse", Result { try WireCodec.decodeResponse(data) }),
                ("readAnswer", Result { try WireCodec.readAnswer(data, after: nil).response }),
                ("JSONDecoder + problem(in:)", Result {
                    let r = try WireCodec.decode(WireResponse.self, from: data)
                    if let p = WireValidation.problem(in: r) { throw WireValidationError(p) }
                    return r
                }),
            ]
            for (reader, result) in reads {
                switch result {
                case .failure(let error as WireValidationError):
                    #expect(error.problem.contains(field.name), "\(reader): \(field) = \(v): the error names another field: \(error.problem)")
                case .failure(let error):
                    Issue.record("\(reader): \(field) = \(v): not a validation error: \(error)")
                case .success:
                    if case .double(let d) = v {
                        #expect(Self.acceptable(d, name: field.name), "\(reader): \(field) = \(v) was accepted")
                    }
                }
            }
        }
    }

    @Test func theSampleIsAValidAnswer() throws {
        // Without a hostile number the sample passes, so every refusal above is the field's own.
        let data = try Self.encode(try WireSchemaSampler.sample(WireResponse.self))
        #expect(throws: Never.self) { try WireCodec.decodeResponse(data) }
    }

    @Test func theIssueGridIsAcceptedAndItsNaNRefused() throws {
        // minimum 1 + spacing −1 is finite and in range: accepted (the renderers must cope).
        let grid = #"{"kind":"lazyVGrid","gridItems":[{"size":"adaptive","minimum":1,"spacing":-1}],"children":[{"kind":"text","text":"a"}]}"#
        let ok = #"{"ok":true,"entries":[{"date":1800000000,"view":\#(grid)}]}"#
        #expect(throws: Never.self) { try WireCodec.decodeResponse(Data(ok.utf8)) }
        let bad = ok.replacing(#""minimum":1"#, with: #""minimum":"nan""#)
        #expect { try WireCodec.decodeResponse(Data(bad.utf8)) } throws: { error in
            (error as? WireValidationError)?.problem == "entry 0: view lazyVGrid: gridItems[0].minimum is nan"
        }
    }
}
