import FoundationEssentials
import OpenWidgetKit
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The recipes of docs/status-bars.md, taken from the page as written, run in the real bars
/// (Debian 12: polybar 3.6, i3 4.22 + i3bar, i3blocks 1.4, conky 1.18, sway 1.7 + swaybar),
/// headless: under Xvfb, or sway with its headless backend. Each bar runs in a user session of
/// its own (`BarSession`: a temp HOME with the config, the plugins and the outputs at their
/// default places, `widgethost` first on PATH), so a recipe needs no `--config`.
///
/// A bar that is not installed skips its test, except under `CI=true`, where it fails it
/// (scripts/install-deps.sh installs them all). Every wait is for a condition.
@Suite(.serialized) struct RealBarTests {
    static let habit = "InteractiveHabit-systemSmall"
    /// How long a condition may take: generous, since a loaded machine (the whole suite on two
    /// cores) makes a host's first output or a bar's start take tens of seconds.
    static let patience = 60.0

    /// docs/status-bars.md, conky: the `${cat …}` recipe verbatim. conky 1.18 does not expand
    /// `~` in `${cat}`, so the former `${cat ~/.local/state/…}` recipe showed an empty line.
    @Test func conkyRecipeAsWrittenShowsTheWidget() throws {
        guard let conky = requireProgram("conky", package: "conky-std") else { return }
        let s = try BarSession(); defer { s.stop() }
        let host = try s.startHost()
        #expect(eventually(timeout: Self.patience) { s.text(Self.habit)?.contains("Habit 0/8") == true }, "stderr:\n\(host.stderr)")
        let recipe = try docRecipe("## conky", fence: "lua")
        // conky prints one status per update (the recipe's out_to_x = false: conky-std draws
        // nothing on the console otherwise); two updates, then it exits.
        FileManagerFree.write(s.dir.path + "/conky.conf", recipe)
        let bar = try s.start(conky, ["-c", s.dir.path + "/conky.conf", "-i", "2"], name: "conky")
        #expect(bar.waitForExit(timeout: Self.patience) == 0, "stderr:\n\(bar.stderr)")
        #expect(bar.stdout.contains("Habit 0/8"), "conky printed:\n\(bar.stdout)\nstderr:\n\(bar.stderr)\nrecipe:\n\(recipe)")
    }

    /// docs/status-bars.md, i3blocks: the persistent block shows the widget and follows it; a
    /// click on the click block (i3blocks reads i3bar's click events on stdin) runs the widget's
    /// control. Only `$BLOCK_BUTTON` names the button in both i3blocks 1.4 and 1.5 (`$button` is
    /// 1.5's alone: the former recipe's clicks did nothing in 1.4).
    @Test func i3blocksRecipeAsWrittenShowsTheWidgetAndClicksLogTheHabit() throws {
        guard let i3blocks = requireProgram("i3blocks", package: "i3blocks") else { return }
        let s = try BarSession(); defer { s.stop() }
        let host = try s.startHost()
        #expect(eventually(timeout: Self.patience) { s.text(Self.habit) != nil }, "stderr:\n\(host.stderr)")
        let recipe = try docRecipe("## i3blocks", fence: "ini")
        FileManagerFree.write(s.dir.path + "/i3blocks.conf", recipe)
        let bar = try s.start(i3blocks, ["-c", s.dir.path + "/i3blocks.conf"], name: "i3blocks")
        #expect(eventually(timeout: Self.patience) { bar.stdout.contains("Habit 0/8") }, "i3blocks stdout:\n\(bar.stdout)\nstderr:\n\(bar.stderr)")
        let clickBlock = try #require(recipe.split(separator: "\n").filter { $0.hasPrefix("[") }.dropFirst().first,
                                      "the recipe has a second block for clicks").dropFirst().dropLast()
        bar.send("[\n{\"name\":\"\(clickBlock)\",\"instance\":\"\",\"button\":1,\"x\":1,\"y\":1}\n")
        #expect(eventually(timeout: Self.patience) { s.text(Self.habit)?.contains("Habit 1/8") == true }, "i3blocks stderr:\n\(bar.stderr)\nhost:\n\(host.stderr)")
        #expect(eventually(timeout: Self.patience) { bar.stdout.split(separator: "\n").last?.contains("Habit 1/8") == true }, "i3blocks stdout:\n\(bar.stdout)")
    }

    /// docs/status-bars.md, polybar: the recipe's module in a real polybar under Xvfb, for a
    /// habit named `100% %{F#ff0000}red`. polybar 3.6 has no escape for `%`: the bar must show
    /// that name as written (one `%`, no red, no tag eaten), so its pixels are compared with a
    /// second polybar, same font and size, showing the expected text. Then a real left click on
    /// the module runs the widget's control.
    @Test func polybarRecipeAsWrittenShowsTheTextAsWrittenAndAClickLogsTheHabit() throws {
        guard let polybar = requireProgram("polybar", package: "polybar"),
              let screen = try XServer.start(width: 700, height: 60),
              let capture = requireProgram("import", package: "imagemagick"),
              let xdotool = requireProgram("xdotool", package: "xdotool") else { return }
        defer { withExtendedLifetime(screen) {} }
        let s = try BarSession(display: screen.display); defer { s.stop() }
        let name = "100% %{F#ff0000}red"
        #expect(s.cli(["defaults", "write", "group.com.yourapp.shared", "habitName", name]).status == 0)
        let host = try s.startHost()
        let expected = "\(name) 0/8 [⊕ Log] [ ] Done today"
        #expect(eventually(timeout: Self.patience) { s.text(Self.habit)?.split(separator: "\n").first == expected[...] }, "out: \(s.text(Self.habit) ?? "none")\nstderr:\n\(host.stderr)")
        // The reference: the same text, with its `%{` kept from opening a tag by an empty offset
        // tag (`%{O0}` moves by 0 px), read line by line from a file.
        let reference = s.dir.path + "/reference.txt"
        func showReference(_ text: String) {
            let fd = open(reference, O_WRONLY | O_CREAT | O_APPEND, 0o644)
            _ = (text.replacing("%{", with: "%%{O0}{") + "\n").withCString { Glibc.write(fd, $0, strlen($0)) }
            close(fd)
        }
        showReference(expected)
        let module = try docRecipe("## polybar", fence: "ini")
        func bar(_ name: String, y: Int, modules: String) -> String {
            """
            [bar/\(name)]
            width = 600
            height = 24
            offset-y = \(y)
            override-redirect = true
            background = #222222
            foreground = #dddddd
            font-0 = DejaVu Sans Mono:size=11;2
            modules-left = \(modules)

            """
        }
        FileManagerFree.write(s.dir.path + "/polybar.ini", bar("recipe", y: 0, modules: "habit") + bar("reference", y: 30, modules: "reference") + """
            \(module)

            [module/reference]
            type = custom/script
            exec = tail -n +1 -F \(reference)
            tail = true

            """)
        let recipeBar = try s.start(polybar, ["-c", s.dir.path + "/polybar.ini", "-l", "info", "recipe"], name: "polybar-recipe")
        let referenceBar = try s.start(polybar, ["-c", s.dir.path + "/polybar.ini", "-l", "info", "reference"], name: "polybar-reference")
        func shot(_ y: Int) -> [UInt8]? {
            let path = s.dir.path + "/shot-\(y).ppm"
            let r = s.run(capture, ["-window", "root", "-crop", "600x24+0+\(y)", "+repage", path])
            return r.status == 0 ? FileManagerFree.bytes(path) : nil
        }
        func sameAsReference() -> Bool {
            guard let a = shot(0), let b = shot(30), a == b else { return false }
            return Set(b.suffix(600 * 24 * 3)).count > 2 // the reference shows text, not only the background
        }
        if !eventually(timeout: Self.patience, sameAsReference) {
            Issue.record("the recipe's bar differs from the expected text \"\(expected)\"; follow printed \(s.follow(Self.habit, "polybar"))\npolybar:\n\(recipeBar.stderr)")
        }
        // Errors about the recipe, not fontconfig failing to write its font cache (seen once,
        // under load, with the two bars starting together): that says nothing of the module.
        let recipeErrors = recipeBar.stderr.split(separator: "\n").filter { $0.contains("error") && !$0.contains("Fontconfig error: No writable cache") }
        #expect(recipeErrors.isEmpty, "polybar:\n\(recipeBar.stderr)")
        // A real left click on the module: polybar runs the %{A1:…:} command.
        #expect(s.run(xdotool, ["mousemove", "40", "12", "click", "1"]).status == 0)
        #expect(eventually(timeout: Self.patience) { s.text(Self.habit)?.contains(" 1/8 ") == true }, "polybar:\n\(recipeBar.stderr)\nhost:\n\(host.stderr)")
        showReference(expected.replacing("0/8", with: "1/8"))
        #expect(eventually(timeout: Self.patience, sameAsReference), "after the click, polybar:\n\(recipeBar.stderr)\nreference:\n\(referenceBar.stderr)")
    }

    /// Every character the example widgets show, in every family, has a glyph in DejaVu Sans Mono,
    /// the recipes' font and Debian's default: polybar logs each character no configured font has
    /// ("Dropping unmatched character"), as it did for Steps' 🯅 before the glyphs were changed.
    @Test func polybarDrawsEveryCharacterOfEveryExampleWidget() throws {
        guard let polybar = requireProgram("polybar", package: "polybar"),
              let screen = try XServer.start(width: 4000, height: 30),
              let capture = requireProgram("import", package: "imagemagick") else { return }
        defer { withExtendedLifetime(screen) {} }
        let s = try BarSession(display: screen.display, widgets: nil, plugins: TestPaths.exampleProducts)
        defer { s.stop() }
        let host = try s.startHost()
        // Every instance the host runs has written its text.
        func missing() -> [String] {
            let r = s.cli(["status", "--json"])
            guard r.status == 0, let o = try? WireCodec.decode([String: JSONValue].self, from: Data(r.stdout.utf8)),
                  case .array(let widgets)? = o["widgets"], !widgets.isEmpty else { return ["(no status)"] }
            return widgets.compactMap { $0.objectValue?["id"]?.stringValue }.filter { s.text($0) == nil }
        }
        #expect(eventually(timeout: Self.patience) { missing().isEmpty }, "no output yet: \(missing())\nhost:\n\(host.stderr.suffix(3000))")
        FileManagerFree.write(s.dir.path + "/polybar.ini", """
            [bar/glyphs]
            width = 100%
            height = 24
            override-redirect = true
            background = #222222
            foreground = #dddddd
            font-0 = DejaVu Sans Mono:size=11;2
            modules-left = all

            [module/all]
            type = custom/script
            exec = cat \(s.out)/*.txt | tr '\\n' ' '
            interval = 3600

            """)
        let bar = try s.start(polybar, ["-c", s.dir.path + "/polybar.ini", "-l", "info", "glyphs"], name: "polybar")
        // The texts are on screen (one render: the script runs once), so polybar has logged every
        // character it dropped from them.
        let shot = s.dir.path + "/shot.ppm"
        #expect(eventually(timeout: Self.patience) {
            s.run(capture, ["-window", "root", "-crop", "4000x24+0+0", "+repage", shot]).status == 0
                && Set(FileManagerFree.bytes(shot)?.suffix(4000 * 24 * 3) ?? []).count > 2
        }, "polybar:\n\(bar.stderr)")
        let dropped = bar.stderr.split(separator: "\n").filter { $0.contains("Dropping unmatched character") }
        #expect(dropped.isEmpty, "characters no font has:\n\(dropped.joined(separator: "\n"))")
    }

    /// docs/status-bars.md, i3: `status_command widgethost run --stdout i3bar` in a real i3 and
    /// i3bar under Xvfb. A real left click on the (only, rightmost) block reaches the host through
    /// i3bar's click events and logs the habit.
    @Test func i3barRecipeAsWrittenRunsTheHostAndAClickLogsTheHabit() throws {
        guard let i3 = requireProgram("i3", package: "i3-wm"),
              let screen = try XServer.start(width: 640, height: 120),
              let xdotool = requireProgram("xdotool", package: "xdotool") else { return }
        defer { withExtendedLifetime(screen) {} }
        let s = try BarSession(display: screen.display, widgets: [Self.habit])
        defer { s.stop() }
        let bar = try docRecipe("## i3 / sway (i3bar protocol)", fence: "")
        FileManagerFree.write(s.dir.path + "/i3.conf", "# i3 config file (v4)\nfont pango:DejaVu Sans Mono 11\n" + bar)
        let wm = try s.start(i3, ["-c", s.dir.path + "/i3.conf"], name: "i3")
        #expect(eventually(timeout: Self.patience) { s.text(Self.habit)?.contains("Habit 0/8") == true }, "i3:\n\(wm.stderr)\n\(wm.stdout)")
        // i3bar (bottom, right-aligned status) has drawn once the host has written; clicks at the
        // bottom-right corner land on the block. Click until one lands (i3bar may still be mapping).
        #expect(eventually(timeout: Self.patience) {
            _ = s.run(xdotool, ["mousemove", "632", "112", "click", "1"])
            return eventually(timeout: 5) { s.text(Self.habit)?.contains("Habit 0/8") == false }
        }, "i3:\n\(wm.stdout)\n\(wm.stderr)")
        #expect(wm.stdout.contains("i3bar click on \(Self.habit) (button 1)") || wm.stderr.contains("i3bar click on \(Self.habit) (button 1)"))
    }

    /// docs/status-bars.md, sway: the same `bar { status_command … }` in a real sway 1.7 with its
    /// headless backend (as an unprivileged user when the tests run as root: sway refuses root).
    /// swaybar is started with `-d` to log what it receives: the header turns click events on,
    /// every status line parses, and Pango accepts the markup of the styled blocks.
    @Test func swaybarRecipeAsWrittenParsesEveryStatusLineAndItsMarkup() throws {
        guard let sway = requireProgram("sway", package: "sway"),
              let swaybar = requireProgram("swaybar", package: "sway") else { return }
        let s = try BarSession(widgets: [Self.habit], unprivileged: getuid() == 0)
        defer { s.stop() }
        let log = s.dir.path + "/swaybar.log"
        let wrapper = s.dir.path + "/swaybar-debug"
        FileManagerFree.write(wrapper, "#!/bin/sh\nexec \(swaybar) -d \"$@\" 2>>\(log)\n")
        chmod(wrapper, 0o755)
        let bar = try docRecipe("## i3 / sway (i3bar protocol)", fence: "")
        let config = "output HEADLESS-1 resolution 800x200\n"
            + bar.replacing("status_command", with: "swaybar_command \(wrapper)\n    status_command")
        FileManagerFree.write(s.dir.path + "/sway.conf", config)
        s.handOver()
        let compositor = try s.start(sway, ["-c", s.dir.path + "/sway.conf"], name: "sway",
                                     extraEnvironment: ["WLR_BACKENDS=headless", "WLR_LIBINPUT_NO_DEVICES=1", "WLR_RENDERER=pixman"],
                                     asUser: s.unprivileged)
        func swaybarLog() -> String { FileManagerFree.read(log) ?? "" }
        #expect(eventually(timeout: Self.patience) { swaybarLog().contains("Received i3bar json") && swaybarLog().contains("Habit 0/8") },
                "swaybar:\n\(swaybarLog())\nsway:\n\(compositor.stderr.suffix(3000))")
        let text = swaybarLog()
        #expect(text.contains("Using i3bar protocol.") && text.contains("Enabling click events."), "swaybar:\n\(text)")
        #expect(!text.contains("Failed to parse"), "swaybar:\n\(text)")
        #expect(!text.contains("pango_parse_markup"), "Pango refused the markup:\n\(text)")
        #expect(text.contains("\"markup\":\"pango\""), "the Habit block is styled: \(text)")
    }

    /// docs/status-bars.md, waybar: the recipe's `custom/habit` module and its `.stale` rule in a
    /// real waybar on headless sway, for a habit named `100% <b>&</b> "x"` (markup that
    /// `"escape": true` must show as written). waybar's pixels are compared with a second bar of
    /// the same waybar showing the expected text through a plain reference module; then the host
    /// stops, and the module must turn as grey as the reference marked stale.
    @Test func waybarRecipeAsWrittenShowsTheTextAsWrittenAndTurnsGreyWhenTheHostStops() throws {
        guard let sway = requireProgram("sway", package: "sway"),
              let waybar = requireProgram("waybar", package: "waybar"),
              let grim = requireProgram("grim", package: "grim") else { return }
        let s = try BarSession(widgets: [Self.habit], unprivileged: getuid() == 0)
        defer { s.stop() }
        let name = "100% <b>&</b> \"x\""
        #expect(s.cli(["defaults", "write", "group.com.yourapp.shared", "habitName", name]).status == 0)
        let expected = "\(name) 0/8 [⊕ Log] [ ] Done today"
        let module = try docRecipe("## waybar", fence: "json")
        let staleRule = try docRecipe("## waybar", fence: "css")
        let reference = s.dir.path + "/reference.jsonl"
        func showReference(stale: Bool) {
            let line = try! WireCodec.encode(["text": expected, "class": stale ? "stale" : "x"])
            let fd = open(reference, O_WRONLY | O_CREAT | O_APPEND, 0o644)
            _ = (Array(line) + [0x0a]).withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            close(fd)
        }
        showReference(stale: false)
        func bar(_ position: String, _ modules: String) -> String {
            "{\"position\": \"\(position)\", \"height\": 26, \"modules-left\": [\"\(modules)\"],"
        }
        FileManagerFree.write(s.dir.path + "/waybar.json", "[" + bar("top", "custom/habit") + module + "},\n"
            + bar("bottom", "custom/reference")
            + "\"custom/reference\": {\"exec\": \"tail -n +1 -F \(reference)\", \"return-type\": \"json\", \"escape\": true}}]\n")
        FileManagerFree.write(s.dir.path + "/waybar.css", """
            * { font-family: "DejaVu Sans Mono"; font-size: 14px; border: none; border-radius: 0; min-height: 0; }
            window#waybar { background: #222222; color: #dddddd; }
            #custom-habit, #custom-reference { padding: 0; margin: 0; }
            \(staleRule)
            #custom-reference.stale { color: #888888; }

            """)
        FileManagerFree.write(s.dir.path + "/sway.conf", """
            output HEADLESS-1 resolution 640x120
            exec \(waybar) -c \(s.dir.path)/waybar.json -s \(s.dir.path)/waybar.css

            """)
        s.handOver()
        let host = try s.start(s.bin + "/widgethost", ["run"], name: "host", asUser: s.unprivileged)
        let compositor = try s.start(sway, ["-c", s.dir.path + "/sway.conf"], name: "sway",
                                     extraEnvironment: ["WLR_BACKENDS=headless", "WLR_LIBINPUT_NO_DEVICES=1", "WLR_RENDERER=pixman"],
                                     asUser: s.unprivileged)
        #expect(eventually(timeout: Self.patience) { s.text(Self.habit)?.hasPrefix(expected) == true }, "out: \(s.text(Self.habit) ?? "none")\nhost:\n\(host.stderr)")
        func shot(_ y: Int) -> [UInt8]? {
            guard let socket = FileManagerFree.names(in: s.runtime).first(where: { $0.hasPrefix("wayland-") && !$0.hasSuffix(".lock") }) else { return nil }
            let path = s.dir.path + "/shot-\(y).ppm"
            let grab = try? BarProcess(grim, ["-t", "ppm", "-g", "0,\(y) 640x26", path], dir: s.dir.path, name: "grim",
                                       environment: s.environment + ["WAYLAND_DISPLAY=\(socket)"])
            return grab?.waitForExit(timeout: Self.patience) == 0 ? FileManagerFree.bytes(path) : nil
        }
        func sameAsReference() -> Bool {
            guard let a = shot(0), let b = shot(94), a == b else { return false }
            return Set(b.suffix(640 * 26 * 3)).count > 2 // text, not only the background
        }
        if !eventually(timeout: Self.patience, sameAsReference) {
            Issue.record("waybar's module differs from the expected text \(expected)\nfollow: \(s.follow(Self.habit, "waybar"))\nsway and waybar:\n\(compositor.stderr.suffix(4000))")
        }
        // The host stops: `follow` marks the widget stale and the recipe's CSS greys it.
        host.signal(SIGTERM)
        #expect(host.waitForExit(timeout: Self.patience) == 0)
        showReference(stale: true)
        if !eventually(timeout: Self.patience, sameAsReference) {
            Issue.record("waybar's module is not greyed like the stale reference\nfollow: \(s.follow(Self.habit, "waybar"))\nsway and waybar:\n\(compositor.stderr.suffix(4000))")
        }
    }
}

// MARK: - Support

/// The first fenced block after `heading` in docs/status-bars.md whose fence line is
/// "```" + `fence` (the recipe exactly as a reader copies it).
func docRecipe(_ heading: String, fence: String) throws -> String {
    let page = try #require(FileManagerFree.read(TestPaths.repoRoot + "/docs/status-bars.md"))
    var lines = page.split(separator: "\n", omittingEmptySubsequences: false).drop { $0 != heading }
    try #require(!lines.isEmpty, "docs/status-bars.md has no \(heading)")
    lines = lines.dropFirst()
    var block: [Substring] = []
    var inside = false
    for line in lines {
        if !inside && line.hasPrefix("## ") { break }
        if !inside && line == "```" + fence { inside = true; continue }
        if inside && line == "```" { return block.joined(separator: "\n") + "\n" }
        if inside { block.append(line) }
    }
    throw RecipeMissing(heading: heading, fence: fence)
}

struct RecipeMissing: Error, CustomStringConvertible {
    let heading: String, fence: String
    var description: String { "docs/status-bars.md: no ```\(fence) block under \(heading)" }
}

/// `program`'s path, or nil after printing why the test is skipped; under `CI=true` a missing
/// program fails the test instead (CI installs every bar through scripts/install-deps.sh).
func requireProgram(_ program: String, package: String) -> String? {
    if let path = which(program) { return path }
    if getenv("CI").map({ String(cString: $0) }) == "true" {
        Issue.record("\(program) is not installed (Debian package \(package); scripts/install-deps.sh installs it)")
    } else {
        print("skipped: \(program) is not installed (Debian package \(package); scripts/install-deps.sh installs it)")
    }
    return nil
}

/// Which conky is installed at `path`: its version, the Debian package that owns the file, and
/// whether it was built with X11 and Imlib2, which the `${image}` recipe needs (Debian's
/// conky-std has both, conky-cli neither, and installing one removes the other: issue 22 saw
/// conky-cli replace conky-std in the middle of a CI run). Read again when a test fails, so its
/// message says which conky ran and why it could not.
struct ConkyBuild: Equatable, CustomStringConvertible {
    let path: String
    let version: String
    let package: String
    let x11: Bool
    let imlib2: Bool

    init(_ path: String) {
        self.path = path
        let v = run(path, ["-v"])
        let text = v.stdout + v.stderr
        version = text.split(separator: "\n").first.map(String.init) ?? "no version (exit \(v.status))"
        x11 = text.split(separator: "\n").contains { $0.trimmingCharacters(in: .whitespaces) == "X11:" }
        imlib2 = text.contains("Imlib2")
        let real = realpath(path, nil).map { p in defer { free(p) }; return String(cString: p) } ?? path
        let owner = run("/usr/bin/dpkg", ["-S", real])
        package = owner.status == 0 ? String(owner.stdout.prefix { $0 != ":" }) : "not from a Debian package"
    }

    var description: String {
        "\(path) (\(version); package \(package); \(x11 ? "with" : "without") X11, \(imlib2 ? "with" : "without") Imlib2)"
    }

    /// Why this conky cannot run the `${image}` recipe, nil when it can.
    var imageProblem: String? {
        x11 && imlib2 ? nil : "it cannot draw ${image}: that needs X11 and Imlib2 (Debian package conky-std; conky-cli has neither)"
    }
}

/// A conky that can run the `${image}` recipe, or nil after saying which conky was found and why
/// it cannot (outside CI the test is skipped; under `CI=true` it fails: CI installs conky-std).
func requireConkyWithImages() -> ConkyBuild? {
    guard let path = requireProgram("conky", package: "conky-std") else { return nil }
    let conky = ConkyBuild(path)
    guard let problem = conky.imageProblem else { return conky }
    if getenv("CI").map({ String(cString: $0) }) == "true" {
        Issue.record("found conky \(conky): \(problem) (scripts/install-deps.sh installs conky-std)")
    } else {
        print("skipped: found conky \(conky): \(problem)")
    }
    return nil
}

/// An Xvfb server on a free display number (it picks it: `-displayfd`), killed on deinit.
final class XServer {
    let display: String
    private let process: BarProcess
    private let dir: TempDir

    init(display: String, process: BarProcess, dir: TempDir) { self.display = display; self.process = process; self.dir = dir }
    deinit { dir.remove() }

    /// Whether this Xvfb still runs, what it wrote and who listens on its display's sockets:
    /// for the failure message of a test whose client could not open the display.
    func diagnosis() -> String { XDisplayDiagnosis.describe(display: display, server: process) }
    var pid: pid_t { process.pid }

    /// Stops the server, as a display that goes away.
    func stop() {
        process.signal(SIGTERM)
        _ = process.waitForExit(timeout: RealBarTests.patience)
    }

    /// nil when Xvfb is missing outside CI (skip).
    static func start(width: Int, height: Int) throws -> XServer? {
        guard let xvfb = requireProgram("Xvfb", package: "xvfb") else { return nil }
        let dir = TempDir()
        let p = try BarProcess(xvfb, ["-displayfd", "1", "-screen", "0", "\(width)x\(height)x24", "-nolisten", "tcp", "-noreset"],
                               dir: dir.path, name: "xvfb", ownGroup: true)
        let display = try DisplayFD.display(printed: { p.stdout }, timeout: RealBarTests.patience, server: "Xvfb") { p.stderr }
        return XServer(display: display, process: p, dir: dir)
    }
}

/// A user's session for one bar: a temp HOME holding `~/.config/widgethost/config.json`, the
/// Habit plugin in `~/.local/share/widgethost/Plugins`, the outputs in
/// `~/.local/state/widgethost/out` (the defaults, no XDG_* variables set), XDG_RUNTIME_DIR, and
/// a PATH that finds this build's `widgethost` first. With `unprivileged`, everything is handed
/// to `nobody` and programs run as that user (`setpriv`), with a copy of `widgethost` it can run.
final class BarSession {
    let dir = TempDir()
    let unprivileged: Bool
    private let display: String?
    private var processes: [BarProcess] = []
    var home: String { dir.path + "/home" }
    var out: String { home + "/.local/state/widgethost/out" }
    var runtime: String { dir.path + "/run" }
    var bin: String { dir.path + "/bin" }

    /// `widgets`: the instances to run (`<kind>-<family>`), nil for every kind of every bundle in
    /// each family; `plugins`: the example products installed.
    init(display: String? = nil, widgets: [String]? = [RealBarTests.habit], plugins: [String] = ["HabitWidget"],
         unprivileged: Bool = false) throws {
        self.display = display
        self.unprivileged = unprivileged
        for d in [home, home + "/.config", home + "/.config/widgethost", home + "/.local", home + "/.local/share",
                  home + "/.local/share/widgethost", home + "/.local/share/widgethost/Plugins", runtime, bin] {
            mkdir(d, 0o700)
        }
        for plugin in plugins {
            try #require(run("/bin/cp", [TestPaths.plugin(plugin), home + "/.local/share/widgethost/Plugins/\(plugin).so"]).status == 0)
        }
        // The bar's `widgethost`: a link to this build, or a copy a user who cannot enter the build
        // folder can run (with `widgethost-worker` beside it, as install.sh puts it).
        if unprivileged {
            try #require(run("/bin/cp", [TestPaths.widgethost, bin + "/widgethost"]).status == 0)
            try #require(run("/bin/cp", [TestPaths.worker, bin + "/widgethost-worker"]).status == 0)
        } else {
            symlink(TestPaths.widgethost, bin + "/widgethost")
        }
        let list = widgets.map { ids in
            ids.map { id in
                let parts = id.split(separator: "-")
                return "{\"kind\": \"\(parts.dropLast().joined(separator: "-"))\", \"family\": \"\(parts.last!)\"}"
            }.joined(separator: ", ")
        }
        // The system bundle reloads every few seconds: the shipped config's budget for it.
        FileManagerFree.write(home + "/.config/widgethost/config.json", "{\"widgets\": \(list.map { "[\($0)]" } ?? "null"), "
                              + "\"bundles\": {\"org.widgethost.system\": {\"limits\": {\"reloadBudget\": 20000}}}}")
    }

    /// The session's environment: ours without DISPLAY, WAYLAND_*, XDG_* and HOME, then the session's.
    var environment: [String] {
        var env = currentEnvironment().filter { e in
            !["HOME=", "DISPLAY=", "WAYLAND_", "XDG_", "SWAYSOCK=", "I3SOCK=", "PATH="].contains { e.hasPrefix($0) }
        }
        env += ["HOME=\(home)", "XDG_RUNTIME_DIR=\(runtime)", "PATH=\(bin):/usr/local/bin:/usr/bin:/bin"]
        if let display { env.append("DISPLAY=\(display)") }
        return env
    }

    /// Gives the whole session to `nobody` (before starting its programs as that user).
    func handOver() {
        guard unprivileged else { return }
        chmod(dir.path, 0o755)
        _ = run("/bin/chown", ["-R", "65534:65534", dir.path])
    }

    /// Starts a program in the session (its own process group, killed on `stop`).
    @discardableResult
    func start(_ program: String, _ args: [String], name: String, extraEnvironment: [String] = [], asUser: Bool = false) throws -> BarProcess {
        let (exe, argv) = asUser ? ("/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", program] + args) : (program, args)
        let p = try BarProcess(exe, argv, dir: dir.path, name: name, environment: environment + extraEnvironment, ownGroup: true)
        processes.append(p)
        return p
    }

    /// `widgethost run` with the session's default config (as the README starts it).
    func startHost() throws -> BarProcess { try start(bin + "/widgethost", ["run", "--log-level", "debug"], name: "host") }

    /// Runs a program to completion in the session's environment.
    func run(_ program: String, _ args: [String]) -> ProcessResult {
        let p: BarProcess
        do { p = try BarProcess(program, args, dir: dir.path, name: "cmd", environment: environment) } catch {
            return ProcessResult(status: -1, stdout: "", stderr: "\(error)")
        }
        let status = p.waitForExit(timeout: 30) ?? -1
        return ProcessResult(status: status, stdout: p.stdout, stderr: p.stderr)
    }

    func cli(_ args: [String]) -> ProcessResult { run(bin + "/widgethost", args) }

    /// The widget's `out/<id>.txt`.
    func text(_ id: String) -> String? { FileManagerFree.read(out + "/\(id).txt") }

    /// One line of `widgethost follow` (for failure messages).
    func follow(_ id: String, _ format: String) -> String {
        let p = try? BarProcess(bin + "/widgethost", ["follow", id, "--format", format], dir: dir.path, name: "follow-once",
                                stdoutPipe: true, environment: environment)
        return p?.readLine(timeout: 5) ?? "(nothing)"
    }

    /// Stops the bars, the hosts they started (found by the pid the host records in `out/`,
    /// since a bar may start it outside its own process group) and removes the session.
    func stop() {
        let hostPid = FileManagerFree.read(out + "/.widgethost.pid")
            .flatMap { $0.split(whereSeparator: { $0 == " " || $0 == "\n" }).first.flatMap { pid_t($0) } }
            .flatMap { $0 > 1 ? $0 : nil }
        if let hostPid { kill(hostPid, SIGTERM) }
        processes.reversed().forEach { $0.signal(SIGTERM) }
        processes.removeAll()
        if let pid = hostPid { eventually(timeout: 10) { kill(pid, 0) != 0 } }
        dir.remove()
    }
}

extension FileManagerFree {
    /// The names in a directory (empty when it cannot be read).
    static func names(in path: String) -> [String] {
        guard let d = opendir(path) else { return [] }
        defer { closedir(d) }
        var names: [String] = []
        while let e = readdir(d) {
            let name = withUnsafeBytes(of: e.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }
}
