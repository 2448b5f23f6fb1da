import FoundationEssentials
import OpenWidgetKit
import Testing
import WidgetGraphics
import WidgetHostCore

/// What the wire validation lets through must be drawable (issue 23: an adaptive grid item of
/// minimum 1 and spacing −1 passed and trapped the text renderer, SIGILL, at every start). For
/// every numeric field of an entry (walked from the `Codable` schema by `WireSchemaSampler`, not
/// listed by hand) set to 0, −1, a tiny, a large and an infinite number, each answer the host
/// accepts is drawn as every kind of view by the text renderers and in a picture. A trap ends
/// the test process: the suite fails loudly.
@Suite struct WireSchemaRenderTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_030)
    static let values: [WireSchemaSampler.Number] = [.double(0), .double(-1), .double(1e-300), .double(-1e-300), .double(1e12),
                                                     .double(9.9e99), .double(-9.9e99), .double(.infinity), .integer(0),
                                                     .integer(WireValidation.maxCount)]

    static func isInteger(_ n: WireSchemaSampler.Number) -> Bool {
        if case .integer = n { return true }
        return false
    }

    /// `view` as each kind of node, its child a text, with the string fields that choose a
    /// renderer's path set two ways (an adaptive or a flexible grid item, a circle or a rounded
    /// rectangle, a timer or a progress).
    static func variants(of view: ViewNode) -> [ViewNode] {
        ViewNode.Kind.allCases.flatMap { kind in
            [("adaptive", "circle", "timer", "accessoryCircular"), ("flexible", "roundedRectangle", "progress", "linearCapacity")].map { grid, shape, date, style in
                var v = view
                v.kind = kind
                v.style = style
                v.children = v.children?.map { var c = $0; c.kind = .text; c.text = "c"; return c }
                v.gridItems = v.gridItems?.map { var g = $0; g.size = grid; return g }
                if var s = v.shape { s.type = shape; v.shape = s }
                if var d = v.date { d.style = date; v.date = d }
                return v
            }
        }
    }

    static let fields = ((try? WireSchemaSampler.numericFields(of: WireResponse.self)) ?? []).filter { $0.path.first == "entries" }

    @Test func theWalkFoundTheEntriesFields() {
        #expect(Self.fields.count > 100, "\(Self.fields.count)")
    }

    @Test(arguments: Self.fields)
    func everyAcceptedNumberIsDrawnWithoutATrap(_ field: WireSchemaSampler.Field) throws {
        let renderer = StandardEntryRenderer()
        let pictures = PictureRenderer()
        var accepted = 0
        for value in Self.values where (field.kind == .integer) == Self.isInteger(value) {
            // A non-finite date cannot be encoded by `JSONEncoder`, and would be refused anyway.
            guard let data = try? WireCodec.encode(try WireSchemaSampler.sample(WireResponse.self, setting: field, to: value)),
                  let answer = try? WireCodec.decodeResponse(data), let view = answer.entries?.first?.view else { continue }
            accepted += 1
            let variants = Self.variants(of: view)
            for variant in variants {
                for family in [WidgetFamily.systemSmall, .accessoryInline] {
                    _ = renderer.render(variant, family: family, now: Self.now)
                }
                _ = renderer.nextChange(of: variant, after: Self.now)
            }
            // One picture of them all, layered: a ZStack offers each layer the whole widget.
            _ = try? pictures.render(ViewNode(kind: .zstack, children: variants), family: .systemSmall, format: .png,
                                     options: PictureOptions(scale: 1, now: Self.now))
        }
        // 0 and −1 are in every entry field's range but `lineLimit`'s (0 and 10⁹ there).
        #expect(accepted >= 2, "\(field): only \(accepted) of the numbers were accepted")
    }
}
