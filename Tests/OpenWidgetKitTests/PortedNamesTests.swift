import FoundationEssentials
import Testing
@testable import OpenWidgetKit

/// The names real iOS widget code uses that issue 27 found missing: each compiles as on iOS and
/// evaluates to the tree iOS would draw (or, for a modifier that changes nothing in a widget,
/// to the same tree as without it).
@Suite struct PortedNamesTests {
    // MARK: modifiers with an effect

    @Test func clippedClipsToTheFrame() {
        let node = eval(Color.orange.frame(width: 400, height: 4).frame(maxWidth: .infinity).clipped())
        #expect(node.modifiers?.other?["clipShape"] == .object(["type": .string("rectangle")]))
        #expect(node.modifiers?.frame?.maxWidth == .infinity)
    }

    @Test func strikethroughAndUnderlineOnAViewReachEveryText() {
        let node = eval(HStack { Text("a"); Text("b") }.strikethrough().underline(pattern: .dash))
        #expect(node.kind == .hstack)
        #expect(node.modifiers?.other?["strikethrough"] == .bool(true))
        #expect(node.modifiers?.other?["underline"] == .bool(true))
        // A text's own decoration still returns Text, so it concatenates.
        let run = eval(Text("old").strikethrough(pattern: .dot) + Text(" new"))
        #expect(run.childNodes.first?.modifiers?.other?["strikethrough"] == .bool(true))
    }

    @Test func fontWidthTextScaleAndRenderingModeAreKept() {
        let text = eval(Text("x").fontWidth(.condensed).textScale(.secondary))
        #expect(text.modifiers?.other?["fontWidth"] == .string("condensed"))
        #expect(text.modifiers?.other?["textScale"] == .string("secondary"))
        let stack = eval(VStack { Text("y") }.fontWidth(.expanded).textScale(.secondary, isEnabled: false))
        #expect(stack.modifiers?.other?["fontWidth"] == .string("expanded"))
        #expect(stack.modifiers?.other?["textScale"] == .string("default"))
        #expect(Font.Width(-0.2) == .condensed)
        let image = eval(Image(systemName: "star").renderingMode(.template))
        #expect(image.symbol == "star" && image.modifiers?.other?["renderingMode"] == .string("template"))
        #expect(eval(Image(systemName: "star")).modifiers == nil)
    }

    // MARK: modifiers that change nothing in a widget

    @Test func noOpModifiersLeaveTheTreeAsItIs() {
        let plain = eval(Text("a").font(.caption))
        let accepted = eval(Text("a").font(.caption)
            .ignoresSafeArea().edgesIgnoringSafeArea(.all).transition(.opacity.combined(with: .move(edge: .top)))
            .accessibilityElement(children: .combine).allowsTightening(true).previewDisplayName("x"))
        #expect(accepted == plain)
    }

    @Test func dynamicTypeSizeSetsAndClampsTheEnvironment() {
        struct Size: View {
            @Environment(\.dynamicTypeSize) var size
            @Environment(\.sizeCategory) var category
            var body: some View { Text("\(size.rawValue) \(category.rawValue)") }
        }
        #expect(eval(Size()).text == "3 3")  // .large
        #expect(eval(Size().dynamicTypeSize(.xSmall)).text == "0 0")
        #expect(eval(Size().dynamicTypeSize(.accessibility2).dynamicTypeSize(...DynamicTypeSize.xxLarge)).text == "8 8")
        #expect(eval(Size().dynamicTypeSize(.xSmall).dynamicTypeSize(.medium ... .xxLarge)).text == "0 0", "the innermost setting wins")
        #expect(eval(Size().dynamicTypeSize(.xLarge...)).text == "4 4")
        #expect(DynamicTypeSize.accessibility1.isAccessibilitySize && !DynamicTypeSize.xxxLarge.isAccessibilitySize)
    }

    // MARK: background and overlay views

    @Test func backgroundAndOverlayTakeAViewAsAnArgument() {
        let node = eval(Text("7").background(Circle().fill(.orange)).overlay(Text("!"), alignment: .topTrailing))
        #expect(node.kind == .zstack && node.alignment == "topTrailing")
        let inner = node.childNodes[0]
        #expect(inner.kind == .zstack)
        #expect(inner.childNodes.map(\.role) == ["background", nil])
        #expect(inner.childNodes[0].shape?.type == "circle")
        #expect(node.childNodes[1].role == "overlay" && node.childNodes[1].text == "!")
    }

    @Test func aColourStillTakesTheShapeStyleForm() {
        // `Color` is a view and a shape style: the style form (a background on the node) wins, as on iOS.
        let node = eval(Text("a").background(Color.red))
        #expect(node.kind == .text && node.modifiers?.background?.name == "red")
        let overlaid = eval(Text("a").overlay(.black.opacity(0.2)))
        #expect(overlaid.kind == .zstack)
        #expect(overlaid.childNodes[1].role == "overlay" && overlaid.childNodes[1].shape?.type == "rectangle")
    }

    // MARK: text

    @Test func localisedTextFormsShowTheirKey() {
        #expect(eval(Text("Steps", comment: "The title")).text == "Steps")
        #expect(eval(Text(LocalizedStringResource("Monthly budget"))).text == "Monthly budget")
        struct Named: Widget {
            var body: some WidgetConfiguration {
                StaticConfiguration(kind: "named", provider: EpochProvider()) { _ in Text("x") }
                    .configurationDisplayName(Text("Budget"))
                    .description(Text("What is left."))
            }
        }
        let record = Named().body._widgetRecords[0]
        #expect(record.displayName == "Budget" && record.description == "What is left.")
    }

    @Test func specifierFormatsLikePrintf() {
        let ratio = 0.6172
        #expect(eval(Text("\(ratio * 100, specifier: "%.0f")%")).text == "62%")
        #expect(eval(Text("\(3.14159, specifier: "%.2f")")).text == "3.14")
        #expect(eval(Text("\(42, specifier: "%d") steps")).text == "42 steps")
        #expect(eval(Text("\(7, specifier: "%03ld")")).text == "007")
        #expect(eval(Text("\(255, specifier: "%X")")).text == "FF")
        #expect(eval(Text("\(Float(2.5), specifier: "%.1f km")")).text == "2.5 km")
        #expect(eval(Text("\(50, specifier: "%d%%")")).text == "50%")
        #expect(eval(Text("\(-3, specifier: "%+d")")).text == "-3")
        // What C would misread is refused: the value's description instead.
        #expect(eval(Text("\(12, specifier: "%s")")).text == "12")
        #expect(eval(Text("\(1.5, specifier: "%d")")).text == "1.5")
        #expect(eval(Text("\(1, specifier: "%d %d")")).text == "1")
        #expect(eval(Text("\(1, specifier: "%n")")).text == "1")
    }

    // MARK: UIKit bridges

    @Test func uiColorsBecomeTheColoursIOSDraws() {
        #expect(Color(uiColor: .systemBlue) == .blue)
        #expect(Color(UIColor.label) == .primary)
        #expect(Color(uiColor: .secondaryLabel) == .secondary)
        #expect(Color(uiColor: UIColor(red: 1, green: 0.5, blue: 0, alpha: 1)) == Color(red: 1, green: 0.5, blue: 0))
        #expect(Color(uiColor: UIColor.systemRed.withAlphaComponent(0.3)) == Color.red.opacity(0.3))
        #expect(Color(uiColor: UIColor(named: "Brand")!) == Color("Brand"))
        let image = eval(Image(uiImage: UIImage(systemName: "star.fill")!))
        #expect(image.symbol == "star.fill")
    }

    /// `UIImage(data:)`: a PNG's bytes go into the tree as a 1x asset; not a PNG, or larger than
    /// the tree's image limits, is nil (only the header is read: no pixels are decoded).
    @Test func aUIImageFromPNGBytesTravelsInTheTree() throws {
        func header(_ w: UInt32, _ h: UInt32) -> Data {
            var b: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]
            for v in [w, h] { b += [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
            return Data(b + [8, 6, 0, 0, 0])
        }
        let node = eval(Image(uiImage: try #require(UIImage(data: header(30, 20)))).resizable())
        let variant = try #require(node.asset?.variants.first)
        #expect(variant.width == 30 && variant.height == 20 && variant.scale == 1)
        #expect(Data(base64Encoded: variant.png ?? "") == header(30, 20) && variant.jpeg == nil)
        #expect(UIImage(data: Data([0xFF, 0xD8, 0xFF, 0xE0] + [UInt8](repeating: 0, count: 40))) == nil)  // a damaged JPEG (a segment of length 0)
        #expect(UIImage(data: header(4097, 10)) == nil)
        #expect(UIImage(data: header(2049, 2049)) == nil)
        #expect(UIImage(contentsOfFile: "/nonexistent/cover.png") == nil)
    }

    @Test func aDynamicUIColorFollowsTheEvaluationsAppearance() {
        struct Swatch: View {
            var body: some View {
                Color(uiColor: UIColor { $0.userInterfaceStyle == .dark ? .white : .black })
                    .overlay(Color(uiColor: .secondarySystemBackground))
            }
        }
        func fills(_ scheme: ColorScheme) -> [StyleSpec?] {
            var env = EnvironmentValues()
            env.colorScheme = scheme
            var out: [StyleSpec?] = []
            ViewEvaluator.evaluate(Swatch(), environment: env).walk { if $0.kind == .color || $0.kind == .shape { out.append($0.shape?.fill) } }
            return out
        }
        #expect(fills(.light) == [StyleSpec(name: "black"), StyleSpec(rgba: [0.949, 0.949, 0.969, 1])])
        #expect(fills(.dark) == [StyleSpec(name: "white"), StyleSpec(rgba: [0.110, 0.110, 0.118, 1])])
    }

    // MARK: shape styles

    @Test func backgroundAndGradientsAreShapeStyles() {
        #expect(eval(Rectangle().fill(.background)).shape?.fill == StyleSpec(name: "background"))
        let stops = Gradient(stops: [.init(color: .red, location: 1), .init(color: .green, location: 0)])
        #expect(stops.colors == [.green, .red])
        let tinted = eval(Gauge(value: 0.5) { Text("x") }.tint(stops))
        #expect(tinted.modifiers?.tint?.gradient == [StyleSpec(name: "green"), StyleSpec(name: "red")])
        #expect(tinted.modifiers?.tint?.gradientPoints == [0.5, 0, 0.5, 1])
    }

    // MARK: intents

    struct LogIntent: AppIntent {
        static var title: LocalizedStringResource { "Log" }
        @Parameter(title: "Amount", description: "How much to log", default: 2) var amount: Int
        @Parameter(title: "Note", description: "Shown in the log") var note: String
        func perform() async throws -> some IntentResult & ReturnsValue<Int> & ProvidesDialog {
            .result(value: amount * 10, dialog: "Logged \(amount)")
        }
    }

    struct SnippetIntent: AppIntent {
        static var title: LocalizedStringResource { "Snippet" }
        func perform() async throws -> some IntentResult & ProvidesDialog & ShowsSnippetView {
            .result(dialog: IntentDialog("Done"), view: Text("Done"))
        }
    }

    @Test func intentResultsWithValuesDialogsAndViewsRun() async throws {
        let result = try await LogIntent().perform() as? _IntentResultOf<Int>
        #expect(result?.value == 20 && result?.dialog?.text == "Logged 2")
        #expect((try await SnippetIntent().perform() as? _IntentResultOf<_NoIntentValue>)?.dialog?.text == "Done")
        let parameters = IntentRegistry.parameterDescriptors(of: LogIntent.self)
        #expect(parameters.map(\.title) == ["Amount", "Note"])
    }

    @Test func showsWidgetLabelInTheAccessoryFamilies() {
        struct Shows: View {
            @Environment(\.showsWidgetLabel) var shows
            var body: some View { Text(shows ? "label" : "none") }
        }
        #expect(eval(Shows(), family: .accessoryCircular).text == "label")
        #expect(eval(Shows(), family: .systemSmall).text == "none")
    }

    // MARK: previews

    @Test func aPreviewProviderCompilesAndItsContextSetsTheFamily() {
        struct Family: View {
            @Environment(\.widgetFamily) var family
            var body: some View { Text(family.rawValue) }
        }
        struct Family_Previews: PreviewProvider {
            static var previews: some View {
                Family().previewContext(WidgetPreviewContext(family: .accessoryInline))
            }
        }
        #expect(eval(Family_Previews.previews).text == "accessoryInline")
    }
}
