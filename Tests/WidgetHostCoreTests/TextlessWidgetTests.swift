import FoundationEssentials
import Logging
import OpenWidgetKit
import Testing
@testable import WidgetHostCore

/// A widget none of whose outputs is text (the desktop only, `[]`, or pictures only) is not
/// rendered as text on its swaps — nobody reads that text (issue 26: a third of the host's CPU
/// for a ticking desktop clock) — yet the desktop gets every entry, and `status` renders its text
/// when asked.
@Suite struct TextlessWidgetTests {
    /// Counts the entries rendered as text, by their text.
    final class CountingRenderer: EntryRenderer {
        let standard = StandardEntryRenderer()
        var rendered: [String] = []
        func render(_ view: ViewNode, family: WidgetFamily, now: Date) -> RenderedEntry {
            rendered.append(view.text ?? "")
            return standard.render(view, family: family, now: now)
        }
        func nextChange(of view: ViewNode, after date: Date) -> Date? { standard.nextChange(of: view, after: date) }
    }

    @Test func aDesktopOnlyWidgetIsShownButNotRenderedAsText() throws {
        let loop = VirtualLoop()
        let sink = RecordingSink()
        let renderer = CountingRenderer()
        let t0 = loop.now
        let scheduler = TimelineScheduler(loop: loop, renderer: renderer, publisher: OutputPublisher(sinks: [sink]),
                                          logger: Logger(label: "test")) { spec, _, reply in
            let prefix = spec.kind == "desk" ? "D" : "B"
            reply(.success(WireResponse(ok: true, entries: (0..<3).map { textEntry(t0 + Double($0), "\(prefix)\($0)") },
                                        policy: WirePolicy(type: "never"))))
        }
        var shown: [String] = []
        scheduler.onShown = { inst, entry in shown.append("\(inst.id):\(entry.view.text ?? "")") }
        scheduler.setInstances([InstanceSpec(id: "desk", bundleName: "b.so", kind: "desk", family: .systemSmall, outputs: []),
                                InstanceSpec(id: "bar", bundleName: "b.so", kind: "bar", family: .systemSmall, outputs: [.stdout])])
        loop.advance(by: 2)
        #expect(Set(shown) == ["desk:D0", "desk:D1", "desk:D2", "bar:B0", "bar:B1", "bar:B2"], "\(shown)")
        #expect(renderer.rendered == ["B0", "B1", "B2"], "only the widget with a text output is rendered as text")
        #expect(sink.texts("desk").isEmpty && sink.texts("bar") == ["B0", "B1", "B2"])
        let desk = try #require(scheduler.instances["desk"])
        #expect(scheduler.currentText(desk, now: loop.now)?.text == "D2", "status renders the current entry when asked")
    }

    /// A live date (`Text(midnight, style: .timer)`, the system clock's seconds) on a widget with
    /// no text and no picture output arms no host timer: the desktop surface ticks it without a
    /// message. With a picture output the host ticks it (the PNG changes each second).
    @Test func aDesktopOnlyLiveDateWakesNoHostButAPictureOneDoes() throws {
        for (outputs, ticks) in [([HostConfig.Output](), false), ([.png], true)] {
            let loop = VirtualLoop()
            let sink = RecordingSink()
            let t0 = loop.now
            let scheduler = TimelineScheduler(loop: loop, renderer: StandardEntryRenderer(), publisher: OutputPublisher(sinks: [sink]),
                                              logger: Logger(label: "test")) { _, _, reply in
                var timer = ViewNode(kind: .text)
                timer.date = DateText(style: "timer", date: t0)
                reply(.success(WireResponse(ok: true, entries: [WireEntry(date: t0, view: timer)], policy: WirePolicy(type: "never"))))
            }
            var shown = 0
            scheduler.onShown = { _, _ in shown += 1 }
            scheduler.setInstances([InstanceSpec(id: "clock", bundleName: "b.so", kind: "clock", family: .systemSmall, outputs: outputs)])
            loop.advance(by: 0)
            #expect(shown == 1, "\(outputs)")
            #expect((scheduler.armedDate != nil) == ticks, "\(outputs): armed \(String(describing: scheduler.armedDate))")
            loop.advance(by: 5)
            #expect(shown == (ticks ? 6 : 1), "\(outputs): shown \(shown) times in 5 s")
        }
    }
}
