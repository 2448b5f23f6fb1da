import FoundationEssentials
import OpenWidgetKit
import Testing
@testable import WidgetHostCore

/// `widgethost status` wording on fixed dates in injected time zones (issue 14).
@Suite struct StatusTextTests {
    /// 2026-03-14 20:30:00 UTC.
    let now = Date(timeIntervalSince1970: 1_773_520_200)

    func widget(nextReload: Date? = nil, reason: String? = nil, lastReload: Date? = nil, reloading: Bool = false,
                budgetUntil: Date? = nil, error: String? = nil) -> HostStatus.Widget {
        HostStatus.Widget(id: "clock-accessoryInline", kind: "clock", family: "accessoryInline", bundle: "SystemWidgets.so",
                          parameters: [:], text: "20:30", relevance: nil, entryDate: nil, entries: 1, nextReload: nextReload,
                          nextReloadReason: reason, lastReload: lastReload, lastReloadReason: "first load", lastReloadSeconds: nil,
                          reloading: reloading, timelineRequests: 1, consecutiveFailures: error == nil ? 0 : 1, lastError: error,
                          url: nil, controls: [], budgetExhaustedUntil: budgetUntil)
    }

    func text(_ w: HostStatus.Widget, time: LocalTime = .fixed(hours: 0)) -> [String] {
        let bundle = HostStatus.Bundle(name: "SystemWidgets.so", bundleId: "org.widgethost.system", worker: "idle", kinds: ["clock"], appGroups: [])
        return StatusText.lines(HostStatus(pid: 42, bundles: [bundle], rejected: [], widgets: [w], pluginDirectory: "/p"), now: now, time: time)
    }

    @Test func theRenderProcessIsOneLineOnceAPictureWasAskedFor() {
        let bundle = HostStatus.Bundle(name: "SystemWidgets.so", bundleId: "org.widgethost.system", worker: "idle", kinds: ["clock"], appGroups: [])
        var s = HostStatus(pid: 42, bundles: [bundle], rejected: [], widgets: [widget()], pluginDirectory: "/p")
        #expect(!StatusText.lines(s, now: now).contains { $0.hasPrefix("pictures:") })
        s.pictures = HostStatus.Pictures(renderProcess: "running", starts: 2, requests: 61, failures: 1,
                                         lastFailure: "clock-systemSmall: the render process was killed by signal 9")
        #expect(StatusText.lines(s, now: now).contains(
            "pictures: render process running (started 2 times); 61 asked for, 1 failed; last failure: clock-systemSmall: the render process was killed by signal 9"))
    }

    @Test func aDueReloadIsDueNowNeverZeroSecondsAgo() {
        for late in [0.0, 0.4, 3] {
            let lines = text(widget(nextReload: now.addingTimeInterval(-late), reason: "timeline ended (policy atEnd)"))
            #expect(lines.contains("  next reload: due now (timeline ended (policy atEnd)); timeline requests 1; entries 1"), "\(lines)")
            #expect(!lines.joined().contains("ago;"))
        }
        #expect(text(widget(nextReload: now.addingTimeInterval(250), reason: "r")).contains { $0.hasPrefix("  next reload: in 4 min 10 s (r)") })
        #expect(text(widget(nextReload: now, reloading: true)).contains { $0.hasPrefix("  next reload: now (in progress)") })
        #expect(text(widget()).contains { $0.hasPrefix("  next reload: on request") })
        #expect(text(widget(lastReload: now.addingTimeInterval(-0.3))).contains("  last reload: just now (first load)"))
        #expect(text(widget(lastReload: now.addingTimeInterval(-75))).contains("  last reload: 1 min 15 s ago (first load)"))
    }

    @Test func aBudgetThatFreesUpAfterMidnightSaysTomorrow() {
        // Now is 2026-03-14 20:30 UTC; 2026-03-15 17:55:30 UTC is tomorrow 17:56 in UTC (rounded
        // up: never before the date).
        let until = Date(timeIntervalSince1970: 1_773_597_330)
        let lines = text(widget(nextReload: until, reason: "container changed", budgetUntil: until, error: "reload budget exhausted until 17:56"))
        #expect(lines.contains("  next reload: until tomorrow 17:56 (reload budget); timeline requests 1; entries 1"), "\(lines)")
        #expect(lines.contains("  reload budget exhausted until tomorrow 17:56; showing the last entry"))
        // In UTC-10 now is 10:30 on the 14th: tomorrow 07:56. In UTC+5 and UTC+4 now is already
        // past midnight (01:30, 00:30 on the 15th): the same instant is today.
        #expect(text(widget(budgetUntil: until), time: .fixed(hours: -10)).contains("  reload budget exhausted until tomorrow 07:56; showing the last entry"))
        #expect(text(widget(budgetUntil: until), time: .fixed(hours: 5)).contains("  reload budget exhausted until 22:56; showing the last entry"))
        #expect(text(widget(budgetUntil: until), time: .fixed(hours: 4)).contains("  reload budget exhausted until 21:56; showing the last entry"))
    }

    @Test func dayAndTimeAcrossDaysAndZones() {
        let t = LocalTime.fixed(hours: 0)
        #expect(t.dayAndTime(now, now: now) == "20:30")
        #expect(t.dayAndTime(now.addingTimeInterval(-86_400), now: now) == "yesterday 20:30")
        #expect(t.dayAndTime(now.addingTimeInterval(3 * 86_400 + 1), now: now) == "2026-03-17 20:31")
        #expect(LocalTime.fixed(hours: 5.5).hhmm(now) == "02:00")
        #expect(LocalTime.duration(7_500) == "2 h 5 min")
        #expect(LocalTime.duration(90_000) == "1 d 1 h")
    }

    @Test func anEmptyPluginFolderIsReported() {
        let empty = StatusText.lines(HostStatus(pid: 7, bundles: [], rejected: [], widgets: [], pluginDirectory: "/home/u/.local/share/widgethost/Plugins"), now: now)
        #expect(empty == ["widgethost pid 7", "no plugins in /home/u/.local/share/widgethost/Plugins: drop bundles (.so files) there"])
        // A folder with only a rejected plugin is not empty: the rejection says why.
        let rejected = StatusText.lines(HostStatus(pid: 7, bundles: [], rejected: [.init(name: "x.so", reason: "not an ELF file")], widgets: []), now: now)
        #expect(rejected == ["widgethost pid 7", "rejected x.so: not an ELF file"])
    }
}
