import FoundationEssentials
import Glibc
import OpenWidgetKit
import Testing
@testable import WidgetLayout

/// `LiveTextRestamp`: a tree brought to a later instant without a layout must be exactly the
/// layout at that instant, or nil. Compared node by node (kind, frames, text) on the
/// fixed-advance measurer, whose `measuresAlike` is exact by construction.
@Suite struct LiveTextRestampTests {
    let bounds = Rect(x: 0, y: 0, width: 170, height: 170)

    /// Every node in tree order: its kind, frames, indicator and text.
    func flat(_ p: PlacedNode) -> [String] {
        var out: [String] = []
        p.walk { n in out.append("\(n.node.kind) \(n.frame) \(n.contentFrame) \(String(describing: n.indicator)) \(String(describing: n.text))") }
        return out
    }

    func layout(_ root: ViewNode, at now: Date, measurer: any TextMeasurer = FixedAdvanceTextMeasurer(), locale: LocaleFormats = .posix) -> PlacedNode {
        LayoutEngine(measurer: measurer, now: now, locale: locale).layout(root, in: bounds)
    }

    @Test func aTickingTimerRestampedIsTheLayoutAtEachSecond() throws {
        let started = fixedNow.addingTimeInterval(-65)
        let root = tree(VStack {
            Text("Tea").textCase(.uppercase)
            Text(started, style: .timer).font(.system(size: 28))
            Text("Steeping ") + Text(started, style: .timer)
            ProgressView(timerInterval: started...fixedNow.addingTimeInterval(300))
        }.font(.system(size: 10)))
        var shown = layout(root, at: fixedNow)
        #expect(texts(shown).map { $0.text?.string ?? "" } == ["TEA", "1:05", "Steeping 1:05"])
        for s in 1...30 {
            let now = fixedNow.addingTimeInterval(Double(s))
            let restamped = try #require(LiveTextRestamp.restamp(shown, now: now, locale: .posix, measurer: FixedAdvanceTextMeasurer()))
            #expect(flat(restamped) == flat(layout(root, at: now)), "\(s) s")
            shown = restamped
        }
        #expect(texts(shown).map { $0.text?.string ?? "" } == ["TEA", "1:35", "Steeping 1:35"])
    }

    @Test func aTextThatGrowsIsLaidOutAgain() {
        // 9:59 → 10:00: a character more, the stack re-centres; the restamp declines.
        let root = tree(VStack { Text("Tea"); Text(fixedNow.addingTimeInterval(-599), style: .timer) }.font(.system(size: 10)))
        let shown = layout(root, at: fixedNow)
        #expect(LiveTextRestamp.restamp(shown, now: fixedNow.addingTimeInterval(1), locale: .posix, measurer: FixedAdvanceTextMeasurer()) == nil)
        // Within 9:xx it is exact.
        let early = layout(root, at: fixedNow.addingTimeInterval(-30))
        let r = LiveTextRestamp.restamp(early, now: fixedNow, locale: .posix, measurer: FixedAdvanceTextMeasurer())
        #expect(r.map(flat) == flat(shown))
    }

    @Test func aTimeWrittenInALocaleAndCaseIsWrittenAlikeAMinuteLater() throws {
        setenv("TZ", "UTC", 1); tzset()
        let root = tree(Text(fixedNow, style: .time).textCase(.lowercase).font(.system(size: 10)))
        let shown = layout(root, at: fixedNow, locale: .enUS)
        let later = fixedNow.addingTimeInterval(60)
        let r = try #require(LiveTextRestamp.restamp(shown, now: later, locale: .enUS, measurer: FixedAdvanceTextMeasurer()))
        let expected = layout(root, at: later, locale: .enUS)
        #expect(flat(r) == flat(expected))
        #expect(texts(r).first?.text?.string.hasSuffix(" pm") == true || texts(r).first?.text?.string.hasSuffix(" am") == true)
    }

    @Test func aMeasurerThatVouchesForNothingMakesEveryChangeALayout() throws {
        struct Plain: TextMeasurer { func measure(_ t: String, font: ResolvedFont, width: Double?, maxLines: Int?) -> TextMeasurement {
            FixedAdvanceTextMeasurer().measure(t, font: font, width: width, maxLines: maxLines)
        } }
        let root = tree(Text(fixedNow.addingTimeInterval(-65), style: .timer).font(.system(size: 10)))
        let shown = layout(root, at: fixedNow, measurer: Plain())
        #expect(LiveTextRestamp.restamp(shown, now: fixedNow.addingTimeInterval(1), locale: .posix, measurer: Plain()) == nil)
        // Nothing reads differently half a second on: the tree as it is.
        let same = try #require(LiveTextRestamp.restamp(shown, now: fixedNow.addingTimeInterval(0.5), locale: .posix, measurer: Plain()))
        #expect(flat(same) == flat(shown))
    }

    @Test func aLiveDateOnANodeTheLayoutDoesNotWriteDeclines() {
        // A hostile tree: a date on an image node. No layout reads it; the restamp cannot know
        // that no future one does, so it declines rather than guess.
        var image = ViewNode(kind: .image)
        image.date = DateText(style: "timer", date: fixedNow.addingTimeInterval(-5))
        var stack = ViewNode(kind: .vstack)
        stack.children = [image]
        let shown = layout(stack, at: fixedNow)
        #expect(LiveTextRestamp.restamp(shown, now: fixedNow.addingTimeInterval(1), locale: .posix, measurer: FixedAdvanceTextMeasurer()) == nil)
    }
}
