import FoundationEssentials
import OpenWidgetKit
import Testing
import WidgetHostCore
import WidgetRendering
#if canImport(Glibc)
import Glibc
#endif

/// The shipped system clock (`Examples/SystemWidgets/ClockWidget.swift`) shows the time of day
/// as a live timer from the local midnight (issue 26): the host ticks its seconds with no
/// timeline entry per second, and the desktop's view stream says nothing while it ticks. Real
/// worker, real host, the plugin as built; fixed dates through the shifted-clock shim.
@Suite(.serialized) struct SystemClockTests {
    /// `HH:MM:SS` of a wall-clock second count.
    static func hms(_ wall: Int) -> String {
        let s = ((wall % 86_400) + 86_400) % 86_400
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        return "\(two(s / 3600)):\(two(s % 3600 / 60)):\(two(s % 60))"
    }

    /// New York's rules as a POSIX TZ (no tzdata needed): EST, EDT from the second Sunday of
    /// March at 02:00 (2026-03-08 07:00 UTC).
    static let newYork = "EST5EDT,M3.2.0,M11.1.0"
    static let springForward = 1_772_953_200

    @Test func theTimelineHasAnEntryAtTheDSTChangeAndEverySecondReadsTheWallTime() throws {
        // 2026-03-07 23:00 EST.
        let start = 1_772_942_400
        let worker = try BlockingWorkerClient(pluginPath: TestPaths.plugin("SystemWidgets"), executable: TestPaths.worker,
                                              environment: try shiftedClockEnvironment(at: Date(timeIntervalSince1970: Double(start)),
                                                                                       timeZone: Self.newYork))
        let answer = try worker.request(WireRequest(op: .timeline, kind: "clock", family: .accessoryInline))
        let entries = try #require(answer.entries)
        let dates = entries.map { Int($0.date.timeIntervalSince1970) }
        // The first entry is the worker's now (a second or two after `start`); then only midnight,
        // 00:10, 01:00, the change (02:00 EST is 03:00 EDT), 10:00 — two days, not 172 800 entries.
        #expect(dates.first.map { $0 >= start && $0 < start + 60 } == true, "\(dates)")
        let h = 3600
        #expect(Array(dates.dropFirst()) == [start + h, start + h + 600, start + 2 * h, Self.springForward,
                                             Self.springForward + 7 * h, start + 24 * h, start + 24 * h + 600, start + 25 * h,
                                             start + 34 * h, start + 48 * h], "\(dates)")
        // Every entry, from its date to the second before the next, renders the local wall time
        // (EST before the change, EDT after) with the right day in front.
        let days = ["Sat 07 Mar", "Sun 08 Mar", "Mon 09 Mar", "Tue 10 Mar"]
        for (i, entry) in entries.enumerated() {
            let from = dates[i], to = i + 1 < dates.count ? dates[i + 1] : from + 5
            for t in [from, from + 1, (from + to) / 2, to - 1] {
                let wall = t + (t >= Self.springForward ? -4 : -5) * h
                var options = RenderOptions()
                options.now = Date(timeIntervalSince1970: Double(t))
                let text = TextRenderer.render(entry.view, family: .accessoryInline, options: options)
                let day = days[wall / 86_400 - 20_519]
                #expect(text.hasSuffix(" \(day) \(Self.hms(wall))"), "entry \(i) at \(t): \(text)")
            }
        }
    }

    /// Real time (the sandboxed worker does not inherit the shifted-clock shim), `TZ=UTC` so the
    /// worker's midnight is known: about a minute.
    @Test func aDesktopClockTicksAcrossAMinuteWithNoViewStreamMessage() throws {
        let config = """
            {"paths": {"plugins": "Plugins", "out": "out", "containers": "containers", "state": "state", "socket": "control.sock"},
             "widgets": [{"id": "clock", "kind": "clock", "family": "systemSmall", "outputs": ["files"]}],
             "desktop": {"widgets": ["clock"]}}
            """
        let d = try RunningDaemon(config: config, environment: ["TZ": "UTC", "LC_ALL": "C.UTF-8"]) { dir in
            let r = run("/bin/cp", [TestPaths.plugin("SystemWidgets"), dir + "/Plugins/SystemWidgets.so"])
            try #require(r.status == 0, "\(r.stderr)")
        }
        var subscriber: ViewStreamSubscriber?
        #expect(eventually { subscriber = ViewStreamSubscriber(socket: d.dir.path + "/control.sock"); return subscriber != nil }, "\(d.stderr.suffix(2000))")
        let s = try #require(subscriber)
        // The snapshot may come before the worker's first answer: the clock's tree comes then.
        func shown(_ m: DesktopViewMessage) -> Bool { m.widgets.contains { $0.id == "clock" && $0.view != nil } }
        #expect(s.wait { $0.contains(where: shown) }, "\(d.stderr.suffix(2000))")
        let first = try #require(s.messages.firstIndex(where: shown))
        let widget = try #require(s.messages[first].widgets.first { $0.id == "clock" })
        let view = try #require(widget.view), day = Int(try #require(widget.entryDate).timeIntervalSince1970) / 86_400
        // Two seconds into the next minute, as the host's text output must come to show it on
        // its own live-date ticks (read as seconds of the day; across midnight too).
        let now = Int(Date().timeIntervalSince1970), target = (now / 60 + 1) * 60 + 2
        func reached() -> Bool {
            guard let text = d.text("clock"), let m = text.firstMatch(of: /(\d\d):(\d\d):(\d\d)/),
                  let h = Int(m.1), let mi = Int(m.2), let sec = Int(m.3) else { return false }
            return ((h * 3600 + mi * 60 + sec) - target % 86_400 + 86_400) % 86_400 < 3600
        }
        #expect(eventually(timeout: 120, reached), "\(d.text("clock") ?? "none")\n\(d.stderr.suffix(2000))")
        // …while the desktop was sent nothing after the tree: the tree it has reads every
        // second by itself (the surface's ticks of a live date: SceneDamageTests).
        s.poll()
        #expect(s.messages.count == first + 1, "\(s.messages.dropFirst(first + 1))")
        #expect(s.failure == nil)
        for t in [now, target - 3, target, target + 61] where t / 86_400 == day {
            var options = RenderOptions()
            options.now = Date(timeIntervalSince1970: Double(t))
            let text = TextRenderer.render(view, family: .systemSmall, options: options)
            #expect(text.contains(Self.hms(t)), "at \(t): \(text)")
        }
        let half = Date(timeIntervalSince1970: Double(now) + 0.5)
        #expect(LiveDateFormatter.nextChange(of: view, after: half) == Date(timeIntervalSince1970: Double(now + 1)))
    }
}
