import FoundationEssentials
import Logging
import OpenWidgetKit
import Testing
import WidgetRendering
@testable import WidgetHostCore
#if canImport(Glibc)
import Glibc
#endif

/// Issue 5 in the core: the i3bar protocol (blocks, order, clicks), the control codec, click
/// resolution, and live-date text ticking on virtual time with no plugin call.
@Suite struct StatusBarTests {
    func output(_ id: String, _ text: String, relevance: Double? = nil, pango: String? = nil, stale: Bool = false, error: String? = nil) -> WidgetOutput {
        WidgetOutput(id: id, text: text, kind: "k", family: "systemSmall", stale: stale, error: error, pango: pango, relevance: relevance)
    }

    @Test func i3barHeaderAndEndlessArray() throws {
        var bytes: [UInt8] = []
        let sink = I3BarSink { bytes += $0 }
        sink.start()
        sink.write(output("b", "two"))
        sink.write(output("a", "one", pango: "<b>one</b>"))
        sink.write(WidgetOutput(id: "b", text: "", kind: "k", family: "systemSmall", stale: true, removed: true))
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
        #expect(lines[0] == #"{"version":1,"click_events":true,"stop_signal":0}"#)
        #expect(lines[1] == "[")
        #expect(lines[2] == "[]")
        #expect(lines.count == 6)
        // Every status line after the first starts with a comma, and is a JSON array of blocks.
        let third = try JSONDecoder().decode([I3BarSink.Block].self, from: Data(lines[4].dropFirst().utf8))
        #expect(third.map(\.name) == ["a", "b"])
        #expect(third[0].full_text == "<b>one</b>" && third[0].markup == "pango")
        #expect(third[1].full_text == "two" && third[1].markup == nil)
        let last = try JSONDecoder().decode([I3BarSink.Block].self, from: Data(lines[5].dropFirst().utf8))
        #expect(last.map(\.name) == ["a"], "a removed widget leaves the line")
    }

    /// Blocks are written directly and kept per widget (issue 16): each is what `JSONEncoder`
    /// wrote (sorted keys, unescaped slashes), and each line is the whole line made afresh,
    /// through changes of text, relevance, errors and removals.
    @Test func i3barLinesAreTheBlocksJSONEncoderWrote() throws {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let outputs = [
            output("clock", "◷ Mon 23 Nov 12:00:00"), output("q", #"a "quoted" \ back/slash"#, relevance: 0.5),
            output("p", "Habit 1/8 [⊕ Log] [ ] Done today", pango: "<b>Habit</b> 1/8 &amp;"), output("ctl", "tab\tnew\nline\u{1}"),
            output("s", "12%", stale: true), output("err", "", error: "worker crashed"), output("e", "🔥 3 days", relevance: 2),
        ]
        var withBackground = output("bg", "Steps 4200"); withBackground.background = "#34C759"
        for o in outputs + [withBackground] {
            let b = I3BarSink.block(o)
            #expect(String(decoding: b.json(), as: UTF8.self) == String(decoding: try e.encode(b), as: UTF8.self))
        }
        for sortByRelevance in [false, true] {
            var bytes: [UInt8] = []
            let sink = I3BarSink(sortByRelevance: sortByRelevance) { bytes += $0 }
            sink.start()
            var shown: [String: WidgetOutput] = [:]
            var expected: [String] = []
            var changes = outputs + [withBackground]
            changes += [output("clock", "◷ Mon 23 Nov 12:00:01"), output("q", "now first", relevance: 9)]
            changes += [WidgetOutput(id: "p", text: "", kind: "k", family: "systemSmall", stale: true, removed: true)]
            changes += [output("clock", "◷ Mon 23 Nov 12:00:02"), output("p", "back")]
            for o in changes {
                sink.write(o)
                if o.removed == true { shown[o.id] = nil } else { shown[o.id] = o }
                expected.append("," + I3BarSink.statusLine(Array(shown.values), sortByRelevance: sortByRelevance))
                let whole = try e.encode(I3BarSink.blocks(Array(shown.values), sortByRelevance: sortByRelevance))
                #expect(expected.last == "," + String(decoding: whole, as: UTF8.self))
            }
            let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
            #expect(Array(lines.dropFirst(3)) == expected)
        }
    }

    @Test func blocksSortByRelevanceAndShowStaleAndErrors() {
        let outs = [output("a", "A", relevance: 0.1), output("b", "B", relevance: 0.9), output("c", "C"),
                    output("d", "", stale: true, error: "boom"), output("e", "E", stale: true, error: "old")]
        #expect(I3BarSink.blocks(outs, sortByRelevance: true).map(\.name) == ["b", "a", "c", "d", "e"])
        #expect(I3BarSink.blocks(outs, sortByRelevance: false).map(\.name) == ["a", "b", "c", "d", "e"])
        let d = I3BarSink.block(outs[3])
        #expect(d.urgent == true && d.color != nil)
        #expect(I3BarSink.block(outs[4]).color == "#888888")
        #expect(I3BarSink.block(output("x", "Habit 1/8  [Log]")).short_text == "Habit 1/8")
    }

    /// `short_text` never cuts a word and keeps the values: it used to give `Habit 1/8 [⊕ Lo…`
    /// and `◷ Sun 22 Nov 17…` (the time gone).
    @Test func shortTextKeepsWholeWordsAndTheValues() {
        #expect(I3BarSink.shortText("Habit 1/8 [⊕ Log] [ ] Done") == "Habit 1/8 Done")
        #expect(I3BarSink.shortText("◷ Sun 22 Nov 17:56:03") == "◷ 22 17:56:03")
        #expect(I3BarSink.shortText("♨ Habit: 6/8") == "♨ Habit: 6/8")
        #expect(I3BarSink.shortText("Habit 0/8 [⊕ Log] [ ] Done today") == "Habit 0/8 Done")
        #expect(I3BarSink.shortText("62% of the morning run today") == "62% of the")
        #expect(I3BarSink.shortText("Supercalifragilisticexpialidocious") == "Supercalifragil…")
        #expect(I3BarSink.shortText("1 2 3 4 5 6 7 8 9 10 11 12") == "6 7 8 9 10 11 12")
    }

    /// `shortText` and `minWidth` count each word once (they run on every tick of a clock): on
    /// 3 000 mixed texts (words, digits, symbols, controls, runs of spaces, a combining mark at
    /// a word's start, other scripts' digits) they give what the plain rule gives — words
    /// joined and counted again after every step, every Character mapped.
    @Test func theCountedShortTextAgreesWithThePlainRule() {
        func plainShortText(_ text: String, limit: Int = 16) -> String {
            var words = plainDropControls(text).split(separator: " ", omittingEmptySubsequences: true).map(String.init)
            let lead = words.first.map { $0.count <= 2 && !$0.contains(where: { $0.isLetter || $0.isNumber }) } == true ? words.removeFirst() : nil
            func joined() -> String { ((lead.map { [$0] } ?? []) + words).joined(separator: " ") }
            while joined().count > limit, let i = words.lastIndex(where: { !$0.contains(where: \.isNumber) }), words.count > 1 { words.remove(at: i) }
            while joined().count > limit, words.count > 1 { words.removeFirst() }
            var out = joined()
            if out.count > limit { out = String(out.prefix(limit - 1)) + "…" }
            return out
        }
        func plainDropControls(_ text: String) -> String {
            var out = "", depth = 0
            for c in text {
                if c == "[" { depth += 1; continue }
                if c == "]" && depth > 0 { depth -= 1; continue }
                if depth == 0 { out.append(c) }
            }
            return out.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
        }
        let pieces = ["◷", "♨", "Mon", "23", "Nov", "04:01:22", "Habit", "1/8", "[⊕ Log]", "[ ]", "Done", "62%", "of", "the",
                      "morning", "Supercalifragilisticexpialidocious", "\u{301}e", "é", "½", "٣", "🏃‍♀️", "x", "", " ", "  ", "[x]", "]", "["]
        var seed: UInt64 = 16  // a fixed seed: every run checks the same texts
        func next(_ bound: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(bound))
        }
        for _ in 0..<3000 {
            let n = next(9)
            let text = (0..<n).map { _ in pieces[next(pieces.count)] }.joined(separator: next(4) == 0 ? "" : " ")
            for limit in [8, 16] {
                #expect(I3BarSink.shortText(text, limit: limit) == plainShortText(text, limit: limit), "\(text.debugDescription) limit \(limit)")
            }
            #expect(I3BarSink.dropControls(text) == plainDropControls(text), "\(text.debugDescription)")
            let plainWidth: String? = text.contains(where: \.isNumber) ? String(text.map { $0.isNumber ? "0" : $0 }) : nil
            #expect(I3BarSink.minWidth(text) == plainWidth, "\(text.debugDescription)")
        }
    }

    /// Only a widget's own colour becomes a bar background, not the semantic fill every iOS
    /// widget sits on.
    @Test func aContainerBackgroundColourReachesTheOutput() {
        func rendered(_ spec: StyleSpec) -> String? {
            var v = textEntry(Date(timeIntervalSince1970: 0), "Habit 1/8").view
            var m = Modifiers(); m.containerBackground = spec
            v.modifiers = m
            return StandardEntryRenderer().render(v, family: .accessoryInline, now: Date(timeIntervalSince1970: 0)).background
        }
        #expect(rendered(StyleSpec(name: "green")) == "#34C759")
        #expect(rendered(StyleSpec(rgba: [1, 0, 0, 1])) == "#FF0000")
        #expect(rendered(StyleSpec(name: "fill.tertiary")) == nil)
        #expect(rendered(StyleSpec(name: "red", opacity: 0.2)) == nil, "a faint tint is not a block background")
    }

    /// Fields i3bar draws: a width that does not jitter as digits change, and a widget's
    /// container background as the block's background.
    @Test func blocksCarryWidthAlignmentAndBackground() {
        let clock = I3BarSink.block(output("clock", "◷ 17:56:03"))
        #expect(clock.min_width == "◷ 00:00:00" && clock.align == "center")
        #expect(clock.background == nil && clock.separator == nil)
        var o = output("habit", "Habit 1/8")
        o.background = "#34C759"
        let pill = I3BarSink.block(o)
        #expect(pill.background == "#34C759" && pill.border == "#34C759")
        #expect(pill.separator == false && pill.separator_block_width == 15)
        #expect(I3BarSink.block(output("w", "no digits")).min_width == nil)
        // With a short text, min_width is the short text's: i3bar keeps min_width when it shows
        // short texts, and a full-text width left a narrow bar's block blank.
        let long = I3BarSink.block(output("h", "Habit 1/8 [⊕ Log] [ ] Done today"))
        #expect(long.short_text == "Habit 1/8 Done" && long.min_width == "Habit 0/0 Done")
        let line = I3BarSink.statusLine([o], sortByRelevance: false)
        #expect(line.contains(##""background":"#34C759""##) && line.contains(#""min_width":"Habit 0/0""#), "\(line)")
    }

    @Test func clickParserReadsTheEndlessArrayInAnyChunks() {
        let stream = #"[\#n{"name":"w1","instance":"k","button":1,"x":10,"y":2}\#n,{"name":"w}{2\"","button":3,"modifiers":["Shift"]}\#n"#
        var whole = I3BarClickParser()
        let all = whole.feed(Array(stream.utf8))
        #expect(all.map(\.name) == ["w1", "w}{2\""])
        #expect(all.map(\.button) == [1, 3])
        var bytewise = I3BarClickParser()
        var got: [I3BarClick] = []
        for b in stream.utf8 { got += bytewise.feed([b]) }
        #expect(got == all)
        var bad = I3BarClickParser()
        #expect(bad.feed(Array(#"{"name": 3}, {"name":"ok"}"#.utf8)).map(\.name) == ["ok"], "a malformed object is dropped")
    }

    @Test func controlCodecRoundTripsLines() throws {
        let req = ControlRequest(op: .click, id: "w", button: 1, target: "Log")
        let line = ControlCodec.encode(req)
        #expect(line.last == 0x0a)
        var splitter = LineSplitter()
        var lines = try splitter.feed(line.prefix(5))
        #expect(lines.isEmpty)
        lines = try splitter.feed(line.dropFirst(5) + ControlCodec.encode(ControlRequest(op: .status)))
        #expect(lines.count == 2)
        #expect(try ControlCodec.decode(ControlRequest.self, line: lines[0]) == req)
        #expect(try ControlCodec.decode(ControlRequest.self, line: lines[1]).op == .status)
        var small = LineSplitter(maxLine: 8)
        #expect(throws: LineSplitter.Overflow.self) { _ = try small.feed(Array("0123456789".utf8)) }
    }

    func interactiveTree(url: String? = "app://x") -> ViewNode {
        var text = ViewNode(kind: .text); text.text = "Log"
        var button = ViewNode(kind: .button, children: [text])
        button.action = IntentAction(id: "0", intent: "LogIntent", parameters: [:], title: "Log Habit")
        var toggle = ViewNode(kind: .toggle)
        toggle.action = IntentAction(id: "1", intent: "ToggleIntent", parameters: ["on": .bool(true)], title: "Toggle Habit")
        toggle.isOn = false
        var root = ViewNode(kind: .vstack, children: [button, toggle])
        if let url { var m = Modifiers(); m.widgetURL = url; root.modifiers = m }
        return root
    }

    @Test func clicksResolveToControlsOrTheURL() {
        let tree = interactiveTree()
        guard case .perform(let a) = InteractionTargets.resolve(tree, button: nil, target: "1") else { Issue.record("id"); return }
        #expect(a.intent == "ToggleIntent")
        guard case .perform(let b) = InteractionTargets.resolve(tree, button: 1, target: "log") else { Issue.record("label"); return }
        #expect(b.id == "0")
        guard case .perform(let c) = InteractionTargets.resolve(tree, button: 1, target: "Toggle Habit") else { Issue.record("title"); return }
        #expect(c.id == "1")
        #expect(InteractionTargets.resolve(tree, button: 1, target: nil) == .perform(b), "left click: the first control")
        #expect(InteractionTargets.resolve(tree, button: 3, target: nil) == .open("app://x"), "other buttons open the URL")
        guard case .nothing(let why) = InteractionTargets.resolve(tree, button: 1, target: "nope") else { Issue.record("nope"); return }
        #expect(why.contains("0 (Log Habit)"))
        var link = ViewNode(kind: .link); link.url = "https://example.org"
        #expect(InteractionTargets.resolve(ViewNode(kind: .vstack, children: [link]), button: 1, target: nil) == .open("https://example.org"))
        #expect(InteractionTargets.controls(in: tree).map(\.title) == ["Log Habit", "Toggle Habit"])
    }

    /// DESIGN §5: `Text(date, style: .timer)` ticks each second from the host's own timer, with
    /// no plugin call, and stops ticking once the entry on screen has no live date.
    @Test func timerTextTicksEachSecondWithNoPluginCallOnlyWhileOnScreen() {
        let logger = Logger(label: "test")
        let h = TimelineSchedulerTests.Harness(logger: logger) { h in
            var timer = ViewNode(kind: .text)
            timer.date = DateText(style: "timer", date: h.t0)
            return WireResponse(ok: true, entries: [WireEntry(date: h.t0, view: timer), textEntry(h.t0 + 5, "done")],
                                policy: WirePolicy(type: "never"))
        }
        #expect(h.calls == 1)
        let first = h.shown
        #expect(h.scheduler.armedDate == h.t0 + 1, "armed for the next second")
        for _ in 0..<4 { h.loop.advance(by: 1) }
        let texts = h.sink.texts("w")
        #expect(texts.count == 5, "one update per second: \(texts)")
        #expect(Set(texts).count == 5 && texts.first == first)
        #expect(texts.last?.contains("4") == true, "\(texts)")
        h.loop.advance(by: 1)
        #expect(h.shown == "done")
        #expect(h.scheduler.armedDate == nil, "no live date on screen: nothing armed")
        h.loop.advance(by: 60)
        #expect(h.sink.texts("w").count == 6)
        #expect(h.calls == 1, "ticking must not call the plugin")
    }

    @Test func relevanceReachesTheOutputs() {
        let h = TimelineSchedulerTests.Harness(logger: Logger(label: "test")) { h in
            WireResponse(ok: true, entries: [WireEntry(date: h.t0, relevance: WireRelevance(score: 0.75, duration: 0), view: textEntry(h.t0, "x").view)],
                         policy: WirePolicy(type: "never"))
        }
        #expect(h.sink.written.last?.relevance == 0.75)
        #expect(String(decoding: h.sink.written.last!.jsonData(), as: UTF8.self).contains(#""relevance":0.75"#))
    }

    @Test func followFormats() {
        var o = output("clock", "12:00 50%")
        o.alt = "clock"; o.tooltip = "noon"; o.class = ["systemSmall"]; o.percentage = 50
        #expect(FollowFormatter.line(o, format: .text) == "12:00 50%")
        #expect(FollowFormatter.line(o, format: .waybar) == #"{"alt":"clock","class":["systemSmall"],"percentage":50,"text":"12:00 50%","tooltip":"noon"}"#)
        #expect(FollowFormatter.line(o, format: .pango) == "12:00 50%")
        // polybar 3.6 prints `%%` as two characters: a `%` stays one.
        #expect(FollowFormatter.line(o, format: .polybar) == "%{A1:widgethost click clock:}12:00 50%%{A}")
        #expect(FollowFormatter.line(o, format: .json).hasPrefix("{"))
    }

    /// Styled runs reach polybar as its colour tags, as they reach waybar as Pango spans; text
    /// that looks like a tag is shown, not parsed.
    @Test func polybarGetsColourTagsAndEscapedText() {
        var o = output("cpu", "CPU 6% %{F#f00}")
        o.pango = ##"<b>CPU</b> <span foreground="#34C759">6%</span> <span foreground="#FF3B30" alpha="50%">%{F#f00} &amp; &lt;x&gt;</span>"##
        #expect(FollowFormatter.line(o, format: .polybar)
                == "%{A1:widgethost click cpu:}CPU %{F#34C759}6%%{F-} %{F#80FF3B30}%%{O0}{F#f00} & <x>%{F-}%{A}")
        o.pango = nil
        #expect(FollowFormatter.line(o, format: .polybar) == "%{A1:widgethost click cpu:}CPU 6% %%{O0}{F#f00}%{A}")
        // Nested colours restore the outer one.
        #expect(PolybarMarkup.fromPango(##"<span foreground="#111111">a<span foreground="#222222">b</span>c</span>"##)
                == "%{F#111111}a%{F#222222}b%{F#111111}c%{F-}")
    }

    /// Issue 22: "the default state" is another folder for each HOME / XDG_STATE_HOME, so a
    /// shared name for it (`control.sock`) let two users' configs, with one runtime directory,
    /// meet on one socket: a client of one reached the other's daemon. Every default socket is
    /// now named by its state folder, spelt canonically.
    @Test func twoConfigsNeverShareADefaultSocket() throws {
        let runtime = ["XDG_RUNTIME_DIR": "/run/user/1"]
        let a = ["HOME": "/home/a"].merging(runtime) { $1 }, b = ["XDG_STATE_HOME": "/srv/b/state"].merging(runtime) { $1 }
        let first = try ConfigParser.parse(Data("{}".utf8), baseDirectory: "/home/a", environment: a)
        let second = try ConfigParser.parse(Data("{}".utf8), baseDirectory: "/srv/b", environment: b)
        let one = ControlSocketPath.resolve(first.paths, environment: a), two = ControlSocketPath.resolve(second.paths, environment: b)
        #expect(one != two)
        #expect(one.hasPrefix("/run/user/1/widgethost/control-") && two.hasPrefix("/run/user/1/widgethost/control-"))
        // One folder however it is spelt: relative, through a symbolic link, with `.` in it.
        let dir = TestDirectory()
        defer { dir.remove() }
        try FileIO.makeDirectories(dir.path + "/real/state")
        symlink(dir.path + "/real", dir.path + "/link")
        let realDir = try #require(realpath(dir.path, nil).map { p in defer { free(p) }; return String(cString: p) })
        func socket(_ state: String) -> String {
            ControlSocketPath.resolve(HostConfig.Paths(plugins: "/p", out: "/o", containers: "/c", state: state), environment: runtime)
        }
        let canonical = socket(dir.path + "/real/state")
        #expect(canonical == "/run/user/1/widgethost/control-\(ControlSocketPath.hash(realDir + "/real/state")).sock")
        #expect(socket(dir.path + "/link/state") == canonical)
        #expect(socket(dir.path + "/real/./state") == canonical)
        #expect(socket(dir.path + "/link/state/not-yet") == socket(dir.path + "/real/state/not-yet"))
        // A relative state path is the folder it names from the working directory, so two
        // daemons started in two folders with `state` get two sockets.
        #expect(ControlSocketPath.canonical("real/state", workingDirectory: dir.path) == realDir + "/real/state")
        #expect(ControlSocketPath.canonical("state", workingDirectory: "/srv/a") != ControlSocketPath.canonical("state", workingDirectory: "/srv/b"))
    }

    @Test func openerAndSocketConfig() throws {
        let c = try ConfigParser.parse(Data(#"{"paths":{"socket":"run/ctl.sock","state":"st"},"defaults":{"opener":["firefox","--new-tab"]}}"#.utf8),
                                       baseDirectory: "/etc/wh", environment: ["HOME": "/home/u"])
        #expect(c.defaults.opener == ["firefox", "--new-tab"])
        #expect(ControlSocketPath.resolve(c.paths, environment: [:]) == "/etc/wh/run/ctl.sock")
        let d = try ConfigParser.parse(Data(#"{"paths":{"state":"st"}}"#.utf8), baseDirectory: "/etc/wh", environment: ["HOME": "/home/u"])
        #expect(d.defaults.opener == ["xdg-open"])
        // A state directory of its own: a socket of its own, so configs run side by side.
        let own = ControlSocketPath.resolve(d.paths, environment: ["XDG_RUNTIME_DIR": "/run/user/1"])
        #expect(own.hasPrefix("/run/user/1/widgethost/control-") && own.hasSuffix(".sock") && own.count == "/run/user/1/widgethost/control-".count + 17)
        let other = try ConfigParser.parse(Data(#"{"paths":{"state":"st2"}}"#.utf8), baseDirectory: "/etc/wh", environment: ["HOME": "/home/u"])
        #expect(ControlSocketPath.resolve(other.paths, environment: ["XDG_RUNTIME_DIR": "/run/user/1"]) != own)
        #expect(ControlSocketPath.resolve(d.paths, environment: [:]) == "/etc/wh/st/control.sock")
        #expect(throws: ConfigError.self) { _ = try ConfigParser.parse(Data(#"{"defaults":{"opener":[]}}"#.utf8), baseDirectory: "/", environment: [:]) }
    }
}
