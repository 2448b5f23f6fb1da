import FoundationEssentials

/// The numbers an answer may carry across the boundary, checked in one place: when an answer
/// is decoded (`WireCodec.decodeResponse`, `WireCodec.readAnswer`) and when a saved timeline is
/// read back (the host's `TimelineStore`).
///
/// The wire spells non-finite doubles as the strings `"nan"`, `"inf"`, `"-inf"` (so that
/// `.frame(maxWidth: .infinity)` can cross it), which means any plugin can send a date of
/// `"nan"` or a grid item's minimum of `"inf"`; such a number traps the first `Int` or `time_t`
/// conversion downstream (issues 15 and 23). So every number of the schema is held to a range
/// here and an answer with one outside it is refused whole, with the path of the first bad value:
///
/// - `date`: entry, policy and live dates — finite, within ±`maxDateMagnitude` seconds of 1970
///   (year −1200 to 5100: `Date.distantPast`/`distantFuture` fit);
/// - `length`: frame, padding, content margins, spacing, font size, corner radius, line width,
///   grid item sizes and spacing, kerning, tracking, aspect ratio, gradient points, and every
///   number under `modifiers.other` (shadow, blur, offsets…) — finite within ±`maxSize`; the
///   renderers clamp what is meaningless (a negative size is 0, a ratio outside 1/1000…1000 is
///   clamped, one ≤ 0 ignored, as SwiftUI does);
/// - `maximum`: `maxWidth`, `maxHeight`, a grid item's `maximum` — a `length`, or `+inf`;
/// - `number`: gauge value and bounds, opacity, rotation, colour components, trims, scale
///   factor, layout priority, relevance score, intent parameters and parameter defaults —
///   finite within ±`maxMagnitude` (opacities, colours and trims are clamped to 0…1 when drawn);
/// - `duration`: a relevance duration, 0…`maxDateMagnitude`;
/// - `count`: `lineLimit`, 0…`maxCount`; `abiVersion` is any integer (it is compared, never used).
///
/// Total over the schema by construction: each wire type's visitor below switches over its
/// `CodingKeys.allCases`, so a field added to a wire type does not compile until it is given a
/// rule (or declared not a number), and `WireSchemaTests` walks the Codable schema feeding NaN,
/// ±inf, 0, negative and huge values to every numeric field. Pure; safe from any thread.
public enum WireValidation {
    public static let maxDateMagnitude: Double = 1e11
    public static let maxSize: Double = 1e9
    public static let maxMagnitude: Double = 1e100
    public static let maxCount = 1_000_000_000
    /// An asset image (`ViewNode.asset`): at most this many variants (1x/2x/3x × light/dark) and
    /// `maxImageBase64Bytes` of base64 PNG or JPEG each, refused here; its numbers are held to the rules
    /// above (scale a `number`, sizes a `count`), and a renderer draws only a variant of scale
    /// 1…`maxImageScale` whose sides are 1…`maxImageSide` pixels and at most `maxImagePixels`
    /// (what it allocates to decode it), as its PNG header (or JPEG frame header) must confirm.
    public static let maxImageVariants = 8
    public static let maxImageScale = 4.0
    public static let maxImageSide = 4096
    public static let maxImagePixels = 2048 * 2048
    public static let maxImageBase64Bytes = 1 << 20

    /// What a number of a field may be (see the type's note).
    enum Rule { case date, length, maximum, number, duration }

    /// What is wrong with the numbers of `response` (its entries, policy and manifest), or nil.
    public static func problem(in response: WireResponse) -> String? {
        problem(in: response, skipping: nil)
    }

    /// `problem(in:)` without the entries `skipping` marks (entries taken from an earlier,
    /// already checked answer: `WireCodec.readAnswer`).
    static func problem(in response: WireResponse, skipping: [Bool]?) -> String? {
        var a = Audit()
        for key in Keys.wireResponse {
            switch key {
            case .manifest: if let m = response.manifest { visit(m, &a) }
            case .entries:
                for (i, e) in (response.entries ?? []).enumerated() where skipping.map({ i >= $0.count || !$0[i] }) ?? true {
                    visit(e, at: i, &a)
                    if a.problem != nil { break }
                }
            case .policy: if let p = response.policy { visit(p, &a) }
            case .ok, .error, .reloadRequests, .missingResources: break
            }
            if let bad = a.problem { return bad }
        }
        return nil
    }

    /// What is wrong with the numbers of a saved timeline (`entries` and `policy`), or nil.
    public static func problem(in entries: [WireEntry], policy: WirePolicy?) -> String? {
        problem(in: WireResponse(ok: true, entries: entries, policy: policy))
    }

    /// What is wrong with the numbers of `entries`, or nil.
    public static func problem(in entries: [WireEntry]) -> String? {
        problem(in: entries, policy: nil)
    }

    /// What is wrong with the numbers of entry `e`, the `i`th of its timeline, or nil.
    public static func problem(in e: WireEntry, at i: Int) -> String? {
        var a = Audit()
        visit(e, at: i, &a)
        return a.problem
    }

    /// `nil` when `d` is a usable date, else what is wrong with it.
    public static func date(_ d: Date) -> String? {
        Audit.verdict(d.timeIntervalSince1970, .date)
    }

    /// Each wire type's coding keys, listed once (`allCases` builds a new array at each call,
    /// and the visitors run for every node of every answer).
    private enum Keys {
        static let bundleManifest = BundleManifest.CodingKeys.allCases
        static let dateText = DateText.CodingKeys.allCases
        static let edgeInsetsSpec = EdgeInsetsSpec.CodingKeys.allCases
        static let enumOption = EnumOption.CodingKeys.allCases
        static let fontSpec = FontSpec.CodingKeys.allCases
        static let frameSpec = FrameSpec.CodingKeys.allCases
        static let gridItemSpec = GridItemSpec.CodingKeys.allCases
        static let imageAsset = ImageAsset.CodingKeys.allCases
        static let imageVariant = ImageVariant.CodingKeys.allCases
        static let intentAction = IntentAction.CodingKeys.allCases
        static let modifiers = Modifiers.CodingKeys.allCases
        static let parameterDescriptor = ParameterDescriptor.CodingKeys.allCases
        static let previewDescriptor = PreviewDescriptor.CodingKeys.allCases
        static let shapeInfo = ShapeInfo.CodingKeys.allCases
        static let styleSpec = StyleSpec.CodingKeys.allCases
        static let viewNode = ViewNode.CodingKeys.allCases
        static let widgetDescriptor = WidgetDescriptor.CodingKeys.allCases
        static let wireEntry = WireEntry.CodingKeys.allCases
        static let wirePolicy = WirePolicy.CodingKeys.allCases
        static let wireRelevance = WireRelevance.CodingKeys.allCases
        static let wireResponse = WireResponse.CodingKeys.allCases
    }

    // MARK: the visitors, one per wire type, each exhaustive over its coding keys

    private static func visit(_ p: WirePolicy, _ a: inout Audit) {
        for key in Keys.wirePolicy {
            switch key {
            case .date: a.check("policy date", p.date, .date)
            case .type: break
            }
        }
    }

    private static func visit(_ e: WireEntry, at i: Int, _ a: inout Audit) {
        for key in Keys.wireEntry where a.problem == nil {
            switch key {
            case .date: a.check("entry \(i): date", e.date, .date)
            case .relevance:
                guard let r = e.relevance else { break }
                for key in Keys.wireRelevance {
                    switch key {
                    case .score: a.check("entry \(i): relevance score", r.score, .number)
                    case .duration: a.check("entry \(i): relevance duration", r.duration, .duration)
                    }
                }
            case .view:
                a.within(.entry(i)) { visit(e.view, &$0) }
            }
        }
    }

    private static func visit(_ m: BundleManifest, _ a: inout Audit) {
        for key in Keys.bundleManifest {
            switch key {
            case .widgets:
                for (i, w) in m.widgets.enumerated() {
                    for key in Keys.widgetDescriptor {
                        switch key {
                        case .parameters:
                            for (j, p) in w.parameters.enumerated() {
                                for key in Keys.parameterDescriptor {
                                    switch key {
                                    case .defaultValue: a.json("manifest widgets[\(i)].parameters[\(j)].defaultValue", p.defaultValue, .number)
                                    case .options:
                                        for key in Keys.enumOption { switch key { case .value, .title: break } }
                                    case .name, .title, .type: break
                                    }
                                }
                            }
                        case .kind, .displayName, .description, .families, .configuration: break
                        }
                    }
                }
            case .previews:
                for key in Keys.previewDescriptor { switch key { case .id, .name, .kind, .family: break } }
            case .abiVersion: break  // any integer: compared with the host's, never used as a number
            case .bundleId, .sdkVersion, .appGroups, .permissions, .filesystems, .busNames, .busSignals, .systemBusNames: break
            }
        }
    }

    /// A node and its children; `a`'s path gets `kind[i] > ` for each level down.
    private static func visit(_ n: ViewNode, _ a: inout Audit) {
        a.within(.node(n.kind)) { a in
            for key in Keys.viewNode where a.problem == nil {
                switch key {
                case .spacing: a.check("spacing", n.spacing, .length)
                case .horizontalSpacing: a.check("horizontalSpacing", n.horizontalSpacing, .length)
                case .value: a.check("value", n.value, .number)
                case .bounds: a.check("bounds", n.bounds, .number)
                case .date: if let d = n.date { visit(d, &a) }
                case .shape: if let s = n.shape { visit(s, &a) }
                case .action: if let x = n.action { visit(x, &a) }
                case .gridItems: for (i, g) in (n.gridItems ?? []).enumerated() { visit(g, "gridItems[\(i)]", &a) }
                case .modifiers: if let m = n.modifiers { visit(m, &a) }
                case .asset: if let x = n.asset { visit(x, &a) }
                case .children: break  // below, each with its own path
                case .kind, .role, .text, .symbol, .alignment, .style, .url, .isOn, .axes: break
                }
            }
        }
        guard a.problem == nil else { return }
        for (i, c) in (n.children ?? []).enumerated() {
            a.within(.child(n.kind, i)) { visit(c, &$0) }
            if a.problem != nil { return }
        }
    }

    private static func visit(_ x: ImageAsset, _ a: inout Audit) {
        for key in Keys.imageAsset {
            switch key {
            case .variants:
                a.limit("asset variants count", x.variants.count, maxImageVariants)
                for (i, v) in x.variants.enumerated() where a.problem == nil {
                    for key in Keys.imageVariant {
                        switch key {
                        case .scale: a.check("asset variants[\(i)].scale", v.scale, .number)
                        case .width: a.count("asset variants[\(i)].width", v.width)
                        case .height: a.count("asset variants[\(i)].height", v.height)
                        case .png: a.limit("asset variants[\(i)].png bytes", v.png?.utf8.count ?? 0, maxImageBase64Bytes)
                        case .jpeg: a.limit("asset variants[\(i)].jpeg bytes", v.jpeg?.utf8.count ?? 0, maxImageBase64Bytes)
                        case .appearance: break
                        }
                    }
                }
            case .name: break
            }
        }
    }

    private static func visit(_ d: DateText, _ a: inout Audit) {
        for key in Keys.dateText {
            switch key {
            case .date: a.check("live date date", d.date, .date)
            case .start: a.check("live date start", d.start, .date)
            case .end: a.check("live date end", d.end, .date)
            case .style, .countsDown, .fields: break
            }
        }
    }

    private static func visit(_ s: ShapeInfo, _ a: inout Audit) {
        for key in Keys.shapeInfo {
            switch key {
            case .cornerRadius: a.check("cornerRadius", s.cornerRadius, .length)
            case .lineWidth: a.check("lineWidth", s.lineWidth, .length)
            case .trimFrom: a.check("trimFrom", s.trimFrom, .number)
            case .trimTo: a.check("trimTo", s.trimTo, .number)
            case .fill: visit(s.fill, "fill", &a)
            case .stroke: visit(s.stroke, "stroke", &a)
            case .type, .lineCap: break
            }
        }
    }

    private static func visit(_ s: StyleSpec?, _ name: @autoclosure () -> String, _ a: inout Audit) {
        guard let s else { return }
        for key in Keys.styleSpec {
            switch key {
            case .rgba: a.check("\(name()).rgba", s.rgba, .number)
            case .opacity: a.check("\(name()).opacity", s.opacity, .number)
            case .gradient: for (i, stop) in (s.gradient ?? []).enumerated() { visit(stop, "\(name()).gradient[\(i)]", &a) }
            case .gradientPoints: a.check("\(name()).gradientPoints", s.gradientPoints, .length)
            case .name, .gradientKind: break
            }
        }
    }

    private static func visit(_ x: IntentAction, _ a: inout Audit) {
        for key in Keys.intentAction {
            switch key {
            case .parameters: for (k, v) in x.parameters { a.json("action.parameters.\(k)", v, .number) }
            case .id, .intent, .title: break
            }
        }
    }

    private static func visit(_ g: GridItemSpec, _ name: @autoclosure () -> String, _ a: inout Audit) {
        for key in Keys.gridItemSpec {
            switch key {
            case .minimum: a.check("\(name()).minimum", g.minimum, .length)
            case .maximum: a.check("\(name()).maximum", g.maximum, .maximum)
            case .spacing: a.check("\(name()).spacing", g.spacing, .length)
            case .size, .alignment: break
            }
        }
    }

    private static func visit(_ e: EdgeInsetsSpec?, _ name: String, _ a: inout Audit) {
        guard let e else { return }
        for key in Keys.edgeInsetsSpec {
            switch key {
            case .top: a.check("\(name).top", e.top, .length)
            case .leading: a.check("\(name).leading", e.leading, .length)
            case .bottom: a.check("\(name).bottom", e.bottom, .length)
            case .trailing: a.check("\(name).trailing", e.trailing, .length)
            }
        }
    }

    private static func visit(_ f: FrameSpec, _ a: inout Audit) {
        for key in Keys.frameSpec {
            switch key {
            case .width: a.check("frame.width", f.width, .length)
            case .height: a.check("frame.height", f.height, .length)
            case .minWidth: a.check("frame.minWidth", f.minWidth, .length)
            case .maxWidth: a.check("frame.maxWidth", f.maxWidth, .maximum)
            case .minHeight: a.check("frame.minHeight", f.minHeight, .length)
            case .maxHeight: a.check("frame.maxHeight", f.maxHeight, .maximum)
            case .alignment: break
            }
        }
    }

    private static func visit(_ m: Modifiers, _ a: inout Audit) {
        for key in Keys.modifiers where a.problem == nil {
            switch key {
            case .font:
                guard let f = m.font else { break }
                for key in Keys.fontSpec {
                    switch key {
                    case .size: a.check("font.size", f.size, .length)
                    case .style, .weight, .design, .italic: break
                    }
                }
            case .foreground: visit(m.foreground, "foreground", &a)
            case .tint: visit(m.tint, "tint", &a)
            case .background: visit(m.background, "background", &a)
            case .containerBackground: visit(m.containerBackground, "containerBackground", &a)
            case .padding: visit(m.padding, "padding", &a)
            case .contentMargins: visit(m.contentMargins, "contentMargins", &a)
            case .frame: if let f = m.frame { visit(f, &a) }
            case .lineLimit: a.count("lineLimit", m.lineLimit)
            case .minimumScaleFactor: a.check("minimumScaleFactor", m.minimumScaleFactor, .number)
            case .opacity: a.check("opacity", m.opacity, .number)
            case .rotation: a.check("rotation", m.rotation, .number)
            case .layoutPriority: a.check("layoutPriority", m.layoutPriority, .number)
            case .kerning: a.check("kerning", m.kerning, .length)
            case .tracking: a.check("tracking", m.tracking, .length)
            case .aspectRatio: a.check("aspectRatio", m.aspectRatio, .length)
            case .other: for (k, v) in m.other ?? [:] { a.json("other.\(k)", v, .length) }
            case .weight, .italic, .monospacedDigit, .widgetURL, .redacted, .privacySensitive, .accessibilityLabel, .hidden,
                 .textAlignment, .fontDesign, .monospaced, .textCase, .truncationMode, .contentMode, .id, .accessibilityHidden:
                break
            }
        }
    }

    // MARK: the checks

    /// The first problem found while visiting, with the path it was found at. Value type.
    struct Audit {
        private(set) var problem: String?
        /// Where the visit is, spelled only when a problem is found (no string is built for
        /// the good numbers of every answer).
        enum Step { case entry(Int), node(ViewNode.Kind), child(ViewNode.Kind, Int) }
        private var steps: [Step] = []

        /// The path so far: `entry 0: view vstack[1] > gauge: `.
        private var prefix: String {
            steps.map {
                switch $0 {
                case .entry(let i): "entry \(i): view "
                case .node(let kind): "\(kind.rawValue): "
                case .child(let kind, let i): "\(kind.rawValue)[\(i)] > "
                }
            }.joined()
        }

        /// Runs `body` one `step` further down the path.
        mutating func within(_ step: Step, _ body: (inout Audit) -> Void) {
            steps.append(step)
            body(&self)
            steps.removeLast()
        }

        mutating func check(_ name: @autoclosure () -> String, _ v: Double?, _ rule: Rule) {
            guard problem == nil, let v, let bad = Self.verdict(v, rule) else { return }
            problem = prefix + name() + " " + bad
        }

        mutating func check(_ name: @autoclosure () -> String, _ v: Date?, _ rule: Rule) {
            guard problem == nil, let v, let bad = Self.verdict(v.timeIntervalSince1970, rule) else { return }
            problem = prefix + name() + " " + bad
        }

        mutating func check(_ name: @autoclosure () -> String, _ vs: [Double]?, _ rule: Rule) {
            for (i, v) in (vs ?? []).enumerated() where problem == nil { check("\(name())[\(i)]", v, rule) }
        }

        /// A size of the schema (`v` in `minimum…maximum`).
        mutating func limit(_ name: @autoclosure () -> String, _ v: Int, _ maximum: Int, minimum: Int = 0) {
            guard problem == nil, v < minimum || v > maximum else { return }
            problem = prefix + name() + " \(v == Int.max ? "" : String(v) + " ")is out of range \(minimum)…\(maximum)"
        }

        mutating func count(_ name: String, _ v: Int?) {
            guard problem == nil, let v, v < 0 || v > maxCount else { return }
            problem = prefix + name + " \(v) is out of range 0…\(maxCount)"
        }

        /// Every number inside `v` (a JSON value of free shape), by its path.
        mutating func json(_ name: @autoclosure () -> String, _ v: JSONValue?, _ rule: Rule) {
            guard problem == nil, let v else { return }
            switch v {
            case .number(let n): check(name(), n, rule)
            case .array(let items): for (i, item) in items.enumerated() { json("\(name())[\(i)]", item, rule) }
            case .object(let members): for (k, item) in members { json("\(name()).\(k)", item, rule) }
            case .null, .bool, .string: break
            }
        }

        /// nil when `v` is allowed by `rule`, else what is wrong with it ("is nan", "… is out of range …").
        static func verdict(_ v: Double, _ rule: Rule) -> String? {
            let (lo, hi): (Double, Double)
            switch rule {
            case .date: (lo, hi) = (-maxDateMagnitude, maxDateMagnitude)
            case .length, .maximum: (lo, hi) = (-maxSize, maxSize)
            case .number: (lo, hi) = (-maxMagnitude, maxMagnitude)
            case .duration: (lo, hi) = (0, maxDateMagnitude)
            }
            if v.isNaN { return rule == .date ? "is nan (seconds since 1970)" : "is nan" }
            if v == .infinity && rule == .maximum { return nil }
            if !v.isFinite { return (v < 0 ? "is -inf" : "is inf") + (rule == .date ? " (seconds since 1970)" : "") }
            if v < lo || v > hi { return "\(v) is out of range \(lo)…\(hi)" + (rule == .date ? " (seconds since 1970)" : "") }
            return nil
        }
    }
}

/// A decoded answer whose numbers are out of range (`WireValidation`).
public struct WireValidationError: Error, CustomStringConvertible, Sendable {
    public var problem: String
    public init(_ problem: String) { self.problem = problem }
    public var description: String { "invalid number in the answer: \(problem)" }
}
