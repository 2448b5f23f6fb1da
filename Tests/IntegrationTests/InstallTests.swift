import FoundationEssentials
import OpenWidgetKit
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `scripts/install.sh --user` into a temporary HOME (issue 14), from the binaries this test run
/// was built with (`--from`), so the test builds nothing: the files land in the XDG places, a
/// second run changes nothing, the unit verifies, the completions load in bash and complete from
/// the running daemon, and `--uninstall` takes it all back.
@Suite(.serialized) struct InstallTests {
    let home = TempDir()

    var environment: [String: String] {
        ["HOME": home.path, "XDG_CONFIG_HOME": home.path + "/.config", "XDG_DATA_HOME": home.path + "/.local/share",
         "XDG_RUNTIME_DIR": home.path + "/run", "PATH": home.path + "/.local/bin:/usr/local/bin:/usr/bin:/bin"]
    }

    func install(_ extra: [String] = []) -> ProcessResult {
        run("/bin/bash", [TestPaths.repoRoot + "/scripts/install.sh", "--user", "--from", TestPaths.products, "--no-systemctl"] + extra,
            environment: environment)
    }

    /// Runs `script` in bash with the installed bash completion loaded.
    func bash(_ script: String) -> ProcessResult {
        let completion = home.path + "/.local/share/bash-completion/completions/widgethost"
        return run("/bin/bash", ["-c", "source '\(completion)' && \(script)"], environment: environment)
    }

    /// What bash completes for `line` (words separated by single spaces; the last one is being typed).
    func complete(_ line: String) -> [String] {
        let words = line.split(separator: " ", omittingEmptySubsequences: false).map { "'\($0)'" }
        let r = bash("""
            COMP_WORDS=(\(words.joined(separator: " "))); COMP_CWORD=\(words.count - 1); COMP_LINE='\(line)'; COMP_POINT=${#COMP_LINE}
            _widgethost widgethost "${COMP_WORDS[-1]}" "${COMP_WORDS[-2]}"; printf '%s\\n' "${COMPREPLY[@]}"
            """)
        return r.stdout.split(separator: "\n").map(String.init)
    }

    @Test func installVerifyCompleteUninstall() throws {
        defer { home.remove() }
        mkdir(home.path + "/run", 0o700)
        let first = install()
        #expect(first.status == 0, "\(first.stderr)")
        let installed = [".local/bin/widgethost", ".local/bin/widgethost-worker", ".local/bin/widgethost-render",
                         ".local/bin/widgethost-desktop", ".local/bin/widgethost-desktop-gtk", ".local/share/widgethost/Plugins/HabitWidget.so",
                         ".local/share/widgethost/Plugins/SystemWidgets.so", ".local/share/widgethost/Plugins/ClockyWidget.so",
                         ".config/systemd/user/widgethost.service", ".config/systemd/user/widgethost@.service",
                         ".local/share/bash-completion/completions/widgethost", ".local/share/zsh/site-functions/_widgethost",
                         ".config/fish/completions/widgethost.fish", ".config/widgethost/config.json"]
        for f in installed { #expect(FileManagerFree.exists(home.path + "/" + f), "\(f) installed") }
        #expect(run(home.path + "/.local/bin/widgethost", ["--version"]).stdout.hasPrefix("widgethost "))

        // The default config: valid, with the XDG paths (no repository-relative `paths`).
        let config = home.path + "/.config/widgethost/config.json"
        let v = run(home.path + "/.local/bin/widgethost", ["validate", "--config", config], environment: environment)
        // As many widgets as the repository's config.json lists.
        let shipped = try WireCodec.decode([String: JSONValue].self, from: Data((FileManagerFree.read(TestPaths.repoRoot + "/config.json") ?? "").utf8))
        let count = shipped["widgets"]?.arrayValue?.count ?? -1
        #expect(v.status == 0 && v.stdout.contains("\(count) widgets; plugins from \(home.path)/.local/share/widgethost/Plugins"), "\(v.stdout)")

        // Idempotent: nothing is installed twice; an edited config is kept.
        let edited = (FileManagerFree.read(config) ?? "").split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.contains("\"minReloadSeconds\": 1,") ? "    \"minReloadSeconds\": 2," : String($0) }.joined(separator: "\n")
        FileManagerFree.write(config, edited)
        let second = install()
        #expect(second.status == 0 && !second.stderr.contains("installed "), "\(second.stderr)")
        #expect(FileManagerFree.read(config)?.contains("\"minReloadSeconds\": 2") == true)

        // The installed unit verifies against the installed binary.
        if let analyze = systemdAnalyze() {
            let r = run(analyze, ["verify", "--user", home.path + "/.config/systemd/user/widgethost.service"], environment: environment)
            #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        }

        // The completions load in bash, and complete subcommands, --format values, and the ids
        // of the running daemon.
        #expect(bash("complete -p widgethost").stdout.contains("_widgethost"))
        #expect(complete("widgethost fol").contains("follow"))
        #expect(complete("widgethost follow --format ") == ["text", "waybar", "pango", "json", "polybar"])
        let d = try RunningDaemon(environment: ["XDG_RUNTIME_DIR": home.path + "/run"])
        d.install(try buildProbe(in: d.dir.path, name: "probe", defines: ["PROBE_STEP=600"]), as: "probe.so")
        #expect(eventually { d.text("probe-systemSmall") != nil }, "stderr:\n\(d.stderr)")
        let ids = complete("widgethost follow --config \(d.dir.path)/config.json ")
        #expect(ids.contains("probe-systemSmall") && ids.contains("probe-accessoryInline"), "\(ids)")
        #expect(complete("widgethost reload --config \(d.dir.path)/config.json ") == ["probe"])
        // zsh and fish scripts are the generator's own; they name the command.
        #expect(FileManagerFree.read(home.path + "/.local/share/zsh/site-functions/_widgethost")?.hasPrefix("#compdef widgethost") == true)

        // Uninstall: everything but the edited config (and state) goes.
        let u = install(["--uninstall"])
        #expect(u.status == 0, "\(u.stderr)")
        for f in installed where !f.hasSuffix("config.json") { #expect(!FileManagerFree.exists(home.path + "/" + f), "\(f) removed") }
        #expect(FileManagerFree.exists(config) && u.stderr.contains("kept \(config) (edited)"))
    }
}
