import FoundationEssentials
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// docs/plugin-authoring.md followed literally, as a new widget author does after the README's
/// commands: the page's own blocks (`GuidePage`) on a copy of this repository in a folder that
/// is not named `widgethost`, from a fresh shell whose `PATH` has no `widgethost` and whose
/// XDG folders are empty. The README's `scripts/run.sh` would have built `.build/release/` in the
/// clone; this build's executables are copied there instead (a release build of the whole
/// repository would cost ten minutes more and test nothing the guide says). The bundle package
/// the guide creates builds the SDK for real, in release, as the guide's `swift build -c release`
/// does: minutes on a loaded machine, so the page is followed once per test process
/// (`GuideWalk.shared`) and each case checks one side of that one walk. Runs in CI.
@Suite struct PluginGuideTests {
    static let page = "docs/plugin-authoring.md"

    @Test func everyCommandOfTheGuideRunsLiterally() throws {
        let walk = try GuideWalk.shared.get()
        #expect(walk.status == 0, "the guide's commands stopped: \(walk.failure ?? "status \(walk.status)")\n\(walk.transcript.suffix(6000))")
        #expect(walk.blocks.filter { if case .run = $0.kind { true } else { false } }.count >= 3, "\(walk.blocks)")
    }

    /// The files `new-bundle` wrote are the page's text, character for character (the clone's
    /// absolute path shown as `/path/to/your/clone`), and they name the SDK by path under the
    /// package name `widgethost`, from a clone folder that has another name.
    @Test func theFilesTheGuideShowsAreTheFilesNewBundleWrote() throws {
        let walk = try GuideWalk.shared.get()
        let expected = walk.blocks.compactMap { b -> (String, String)? in
            if case .expectFile(let path) = b.kind { (path, b.text) } else { nil }
        }
        #expect(expected.map(\.0) == ["../MyWidgets/Package.swift", "../MyWidgets/Sources/MyWidgets/MyWidgets.swift"])
        for (path, text) in expected {
            let written = FileManagerFree.read(walk.clone + "/" + path)
            let shown = written.map { $0.replacingPath(walk.clone, with: GuidePage.clonePlaceholder) }
            #expect(shown == text, "\(path) as new-bundle wrote it differs from the guide:\n\(written ?? "(missing)")")
        }
        #expect(!walk.clone.hasSuffix("/widgethost"))
        #expect(FileManagerFree.read(walk.clone + "/../MyWidgets/Package.swift")?.contains("path: \"\(walk.clone)\"") == true)
    }

    /// What the page says the commands print, they print; no SF Symbol of the example lacks a
    /// glyph, and its home-screen family has a container background; the value written with `defaults write --config` is the one `preview --config`
    /// shows (issue 22: preview read other containers than the host).
    @Test func theOutputsTheGuideShowsAreWhatTheCommandsPrint() throws {
        let walk = try GuideWalk.shared.get()
        var previous: GuidePage.Block?
        var checked = 0
        for block in walk.blocks {
            if case .output = block.kind, let run = previous {
                let printed = walk.output(of: run)
                for line in block.text.split(separator: "\n") {
                    #expect(printed.contains(line), "after the block at line \(run.line), the guide shows \"\(line)\"; it printed:\n\(printed)")
                }
                checked += 1
            }
            if case .run = block.kind { previous = block }
        }
        #expect(checked >= 2)
        #expect(!walk.transcript.contains("SF Symbol"), "\(walk.transcript)")
        // The example is a port an iOS 17 user would accept: it has its container background.
        #expect(!walk.transcript.contains("no containerBackground"), "\(walk.transcript)")
    }

    /// The pictures land in the folders the page names (created with their parents), and the
    /// bundle in the plugin folder of the clone's host, under the name the page gives it.
    @Test func thePicturesAndTheInstalledBundleAreWhereTheGuideSays() throws {
        let walk = try GuideWalk.shared.get()
        let bundle = walk.clone + "/../MyWidgets"
        for file in ["out/png/counter-systemSmall-snapshot.png", "out/png/counter-accessoryInline-timeline-00.png",
                     "out/svg/counter-systemSmall-snapshot.svg"] {
            #expect(FileManagerFree.exists(bundle + "/" + file), "\(file) missing\n\(walk.transcript.suffix(3000))")
        }
        let installed = FileManagerFree.bytes(walk.clone + "/Plugins/MyWidgets.so")
        #expect(installed != nil && installed == FileManagerFree.bytes(bundle + "/.build/release/libMyWidgets.so"))
    }

    /// The host `scripts/run.sh` runs — `run` on the clone's `config.json` — loads the
    /// installed bundle with the log line the page quotes (in the walk's XDG folders, so no
    /// other host on the machine is involved).
    @Test func theHostOnTheClonesConfigLoadsTheInstalledBundle() throws {
        let walk = try GuideWalk.shared.get()
        try #require(walk.status == 0, "the guide's commands stopped: \(walk.failure ?? "")")
        let page = try #require(FileManagerFree.read(TestPaths.repoRoot + "/" + Self.page))
        let line = "plugin loaded: MyWidgets.so (MyWidgets.CounterWidget; widgets: counter)"
        #expect(page.contains("`\(line)`"), "the page quotes another log line")
        let environment = currentEnvironment().filter { !$0.hasPrefix("XDG_") } + walk.xdgEnvironment.map { "\($0.key)=\($0.value)" }
        let host = try BarProcess(walk.clone + "/.build/release/widgethost", ["run", "--config", walk.clone + "/config.json"],
                                  dir: GuideWalk.root, name: "host", stdin: .file("/dev/null"), environment: environment)
        defer { host.signal(SIGTERM); _ = host.waitForExit() }
        #expect(eventually(timeout: 60) { FileManagerFree.read(host.errPath)?.contains(line) == true },
                "host:\n\(FileManagerFree.read(host.errPath) ?? "")")
    }
}

/// The blocks of a guide page that `PluginGuideTests` follows, marked by an HTML comment on the
/// line before the fence: `<!-- guide-test: run -->` (a shell block to run),
/// `<!-- guide-test: expect-file PATH -->` (a file the commands wrote, relative to the clone),
/// `<!-- guide-test: output -->` (lines the run block before prints). Pure.
struct GuidePage {
    struct Block: CustomStringConvertible {
        enum Kind: Equatable { case run, expectFile(String), output }
        let kind: Kind
        let text: String
        /// The line of the opening fence (1-based), for messages.
        let line: Int
        var description: String { "\(kind) at line \(line)" }
    }

    /// How an `expect-file` block writes the clone's absolute path.
    static let clonePlaceholder = "/path/to/your/clone"

    let blocks: [Block]
    /// Lines of `sh` blocks with no `run` marker: commands the test would not follow.
    let unmarkedShellBlocks: [Int]

    init(_ markdown: String) throws {
        let lines = markdown.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var blocks: [Block] = [], unmarked: [Int] = []
        var i = 0
        while i < lines.count {
            guard lines[i].hasPrefix("```"), lines[i].count > 3 else { i += 1; continue }
            let fence = i
            var end = i + 1
            while end < lines.count && lines[end] != "```" { end += 1 }
            let text = lines[(fence + 1)..<min(end, lines.count)].joined(separator: "\n") + "\n"
            let marker = fence > 0 ? lines[fence - 1] : ""
            if marker.hasPrefix("<!-- guide-test: ") && marker.hasSuffix(" -->") {
                let words = marker.dropFirst(17).dropLast(4).split(separator: " ").map(String.init)
                switch words.first {
                case "run": blocks.append(Block(kind: .run, text: text, line: fence + 1))
                case "output": blocks.append(Block(kind: .output, text: text, line: fence + 1))
                case "expect-file" where words.count == 2: blocks.append(Block(kind: .expectFile(words[1]), text: text, line: fence + 1))
                default: throw GuideError(description: "line \(fence): unknown marker \(marker)")
                }
            } else if lines[fence] == "```sh" {
                unmarked.append(fence + 1)
            }
            i = end + 1
        }
        self.blocks = blocks
        unmarkedShellBlocks = unmarked
    }

    struct GuideError: Error, CustomStringConvertible { let description: String }
}

/// One walk through the guide: the repository copied into `<temp>/sdk-main`, this build's
/// executables in its `.build/release/`, and every `run` block of the page executed in order in
/// one bash (`set -e`), its output (stdout and stderr together) split per block.
struct GuideWalk {
    let blocks: [GuidePage.Block]
    /// The clone's absolute path (its folder is `sdk-main`).
    let clone: String
    let status: Int32
    let transcript: String
    /// The walk's own XDG folders, which its commands ran with.
    let xdgEnvironment: [String: String]
    /// The command that failed, when one did.
    let failure: String?
    private let outputs: [Int: String]

    /// What the run block at `block.line` printed.
    func output(of block: GuidePage.Block) -> String { outputs[block.line] ?? "" }

    /// This process's walk folder.
    static var root: String { "/tmp/widgethost-guide-\(getpid())" }

    /// Followed at the first use, once per test process; its folder stays for the process's
    /// other cases and is removed when the process exits (`root`).
    static let shared: Result<GuideWalk, any Error> = Result { try GuideWalk() }

    private init() throws {
        let page = try GuidePage(try #require(FileManagerFree.read(TestPaths.repoRoot + "/" + PluginGuideTests.page)))
        try #require(page.unmarkedShellBlocks.isEmpty, "sh blocks with no guide-test marker at lines \(page.unmarkedShellBlocks)")
        blocks = page.blocks
        // Walks of test processes that have ended (each removes its own at exit, unless killed).
        _ = run("/bin/sh", ["-c", "for d in /tmp/widgethost-guide-*; do [ -d \"$d\" ] && ! kill -0 \"${d##*-}\" 2>/dev/null && rm -rf \"$d\"; done; true"])
        let root = Self.root
        atexit { _ = system("rm -rf '\(GuideWalk.root)'") }
        clone = root + "/sdk-main"
        try #require(run("/bin/mkdir", ["-p", clone + "/.build/release", root + "/xdg/config", root + "/xdg/data",
                                         root + "/xdg/state", root + "/xdg/runtime"]).status == 0)
        // The repository's files as git sees them (tracked and new, without ignored build
        // output), from the working tree.
        let copy = run("/bin/sh", ["-c", "git -C \"$1\" ls-files -z --cached --others --exclude-standard | "
                                       + "tar -C \"$1\" --null --ignore-failed-read -T - -cf - | tar -C \"$2\" -xf -",
                                   "sh", TestPaths.repoRoot, clone])
        try #require(copy.status == 0, "copying the repository: \(copy.stderr)")
        for exe in ["widgethost", "widgethost-worker", "widgethost-render"] {
            try #require(run("/bin/cp", [TestPaths.products + "/" + exe, clone + "/.build/release/" + exe]).status == 0)
        }
        var script = "exec 2>&1\nset -eo pipefail\ntrap 'echo \"@@guide-failed: $BASH_COMMAND\"' ERR\ncd \"\(clone)\"\n"
        for b in blocks where b.kind == .run { script += "echo '@@guide-block \(b.line)'\n" + b.text }
        script += "echo '@@guide-end'\n"
        FileManagerFree.write(root + "/guide.sh", script)
        // A PATH on which no widgethost is found: the guide must say how to reach it.
        let path = (getenv("PATH").map { String(cString: $0) } ?? "/usr/bin:/bin").split(separator: ":")
            .filter { !FileManagerFree.exists($0 + "/widgethost") }.joined(separator: ":")
        xdgEnvironment = ["XDG_CONFIG_HOME": root + "/xdg/config", "XDG_DATA_HOME": root + "/xdg/data",
                          "XDG_STATE_HOME": root + "/xdg/state", "XDG_RUNTIME_DIR": root + "/xdg/runtime"]
        let r = run("/bin/bash", [root + "/guide.sh"], environment: xdgEnvironment.merging(["PATH": path]) { $1 })
        status = r.stdout.contains("@@guide-end\n") ? r.status : max(1, r.status)
        transcript = r.stdout + r.stderr
        failure = transcript.split(separator: "\n").first { $0.hasPrefix("@@guide-failed: ") }.map { String($0.dropFirst(16)) }
        var outputs: [Int: String] = [:], current: Int?
        for line in r.stdout.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("@@guide-block ") { current = Int(line.dropFirst(14)); continue }
            if let current { outputs[current, default: ""] += line + "\n" }
        }
        self.outputs = outputs
    }
}

extension String {
    /// `self` with every occurrence of `path` replaced by `placeholder`.
    func replacingPath(_ path: String, with placeholder: String) -> String {
        split(separator: path, omittingEmptySubsequences: false).joined(separator: placeholder)
    }
}
