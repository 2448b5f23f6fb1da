import ArgumentParser
import FoundationEssentials
import OpenWidgetKit
import WidgetHostCore
import WidgetRendering
#if canImport(Glibc)
import Glibc
#endif

/// `widgethost validate [--config F] [PLUGIN.so…]`: checks a configuration (every error, each with
/// its JSON path) and plugins (each loaded in a worker under the config's limits: ABI and SDK
/// versions, its widgets and families, placeholder and snapshot of each) without starting the
/// daemon. The config is judged by the check `run` makes (`ConfigSource.check`): what `run`
/// refuses, `validate` lists with the same words. Kinds of the plugins given that no configured
/// widget places are named with the `widgethost add` command that places them. Exit status 0
/// when everything is valid, 1 otherwise, for scripts and CI.
struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check a configuration and plugins without starting the host (exit status 0 or 1).",
        discussion: """
        Lists every error of the config with its JSON path, not only the first: exactly what \
        `run` refuses (an empty file, a paths.plugins folder that does not exist…). Each plugin is \
        loaded in a worker with the config's limits (memory, response size, render deadline, \
        requestTimeoutSeconds), its ABI and SDK versions are checked, and the placeholder and \
        snapshot of every widget in every family it supports are requested and checked against \
        the size limits.
        """
    )

    @Option(name: .long, help: "The config file (default: $XDG_CONFIG_HOME/widgethost/config.json when it exists, else built-in defaults).",
            completion: .file(extensions: ["json"]))
    var config: String?

    @Argument(help: ArgumentHelp("Plugin shared objects to check.", valueName: "plugin.so"), completion: .file(extensions: ["so"]))
    var plugins: [String] = []

    func run() throws {
        var failed = false
        let source = ConfigSource(explicitPath: config, forDaemon: true)
        let hostConfig = checkConfig(source, failed: &failed)
        var loaded: [(name: String, manifest: BundleManifest)] = []
        for plugin in plugins {
            let check = PluginCheck(path: ConfigSource.absolute(plugin), config: hostConfig)
            if !check.run() { failed = true }
            if let m = check.manifest { loaded.append((plugin.lastPathComponent, m)) }
        }
        // The configured widgets against the plugins given: a typo in a kind or a family the
        // kind does not support. Warnings only (the plugin folder may hold more than was given).
        // And the kinds of the plugins given that no widget places: a dropped-in bundle would show
        // nothing (issue 22), so each is named with the command that places it.
        if hostConfig.widgets != nil && !loaded.isEmpty {
            let plan = WidgetInstancePlanner.plan(config: hostConfig, bundles: loaded.map(\.manifest), bundleNames: loaded.map(\.name))
            for u in plan.unresolved { print("warning: \(u) (among the plugins given)") }
            let configFile = source.path == HostPaths.defaultConfigFile(source.environment) ? nil : source.path
            for u in plan.unplaced { print(u.line(configFile: configFile)) }
        }
        print(failed ? "invalid" : "valid")
        if failed { throw ExitCode(1) }
    }

    /// Prints the config's verdict and every error, from the same check `run` makes
    /// (`ConfigSource.check`); the config to check plugins with (defaults where the file is wrong).
    private func checkConfig(_ source: ConfigSource, failed: inout Bool) -> HostConfig {
        let checked = source.check()
        guard let path = source.path else {
            print("config: none found (\(HostPaths.defaultConfigFile(source.environment))): built-in defaults")
            return checked.config
        }
        guard checked.errors.isEmpty else {
            failed = true
            print("config \(path): \(checked.errors.count) error\(checked.errors.count == 1 ? "" : "s")")
            for e in checked.errors { print("  \(e)") }
            return checked.config
        }
        let c = checked.config
        let widgets = c.widgets.map { "\($0.count) widget\($0.count == 1 ? "" : "s")" } ?? "every widget of every bundle"
        print("config \(path): ok (\(widgets); plugins from \(c.paths.plugins))")
        let pictures = (c.widgets?.map(\.outputs) ?? [c.defaults.outputs]).contains { $0.contains(where: \.isPicture) }
        let render = PreviewPictures.renderExecutable()
        if pictures && access(render, X_OK) != 0 {
            print("warning: png/svg outputs are drawn by \(render), which cannot be run: \(String(cString: strerror(errno)))")
        }
        return c
    }
}

/// One plugin checked as the daemon would load it. Prints its report; `run()` is true when valid.
/// A worker killed past a deadline is replaced for the next request, as the daemon does.
/// Single-threaded.
final class PluginCheck {
    let path: String
    let config: HostConfig
    private var worker: BlockingWorkerClient?
    private var workerArguments: [String] = []
    /// The colours, images and strings asked for and not in the bundle, each named once.
    private let missingResources = MissingResourceReport()
    /// The bundle's manifest once `describe` has answered acceptably.
    private(set) var manifest: BundleManifest?

    init(path: String, config: HostConfig) { self.path = path; self.config = config }

    func run() -> Bool {
        let name = path.lastPathComponent
        if let p = PluginSecurity.problem(path, what: "plugin") { return fail("plugin \(path): \(p)") }
        guard FileIO.exists(path) else { return fail("plugin \(path): no such file") }
        let fileLimits = config.limits(fileName: name, bundleId: nil)
        let timeout = config.defaults.requestTimeoutSeconds
        workerArguments = fileLimits.workerArguments
        let manifest: BundleManifest
        do {
            let r = try request(WireRequest(op: .describe), timeout: timeout)
            if let problem = PluginRegistry.problem(with: r) { return fail("plugin \(path): \(problem)") }
            manifest = r.manifest!
            self.manifest = manifest
        } catch {
            return fail("plugin \(path): \(error)")
        }
        let limits = config.limits(fileName: name, bundleId: manifest.bundleId)
        print("plugin \(path): bundle \(manifest.bundleId), SDK \(manifest.sdkVersion.isEmpty ? "none" : manifest.sdkVersion), ABI \(manifest.abiVersion)"
              + (manifest.appGroups.isEmpty ? "" : ", app groups \(manifest.appGroups.joined(separator: ", "))")
              + ((manifest.filesystems ?? []).isEmpty ? "" : ", reads \(manifest.filesystems!.joined(separator: ", "))"))
        if manifest.widgets.isEmpty { return fail("  no widgets declared") }
        var ok = true
        for widget in manifest.widgets {
            var problems: [String] = []
            var slowest = 0.0
            var withoutBackground: [WidgetFamily] = []
            var missingLines: [String] = []
            for family in widget.families {
                for op in [WireOperation.placeholder, .snapshot] {
                    let start = BlockingWorkerClient.monotonicSeconds()
                    if let problem = check(op, widget: widget, family: family, limits: limits, timeout: timeout,
                                           withoutBackground: &withoutBackground, missing: &missingLines) {
                        problems.append("    \(family.rawValue) \(op.rawValue): \(problem)")
                    }
                    slowest = max(slowest, BlockingWorkerClient.monotonicSeconds() - start)
                }
            }
            if widget.families.isEmpty { problems.append("    no families declared") }
            let verdict = problems.isEmpty ? "placeholder and snapshot ok, slowest \(Int((slowest * 1000).rounded())) ms" : "\(problems.count) failed"
            print("  \(widget.kind) (\(widget.displayName)): \(widget.families.map(\.rawValue).joined(separator: ", ")) — \(verdict)")
            for p in problems { ok = fail(p) }
            // Valid here, yet iOS 17 would show its error in the widget's place: a port's to-do.
            if !withoutBackground.isEmpty {
                print("    warning: " + ContainerBackgroundCheck.line(kind: widget.kind, families: withoutBackground))
            }
            for line in missingLines { print("    warning: " + line) }
        }
        return ok
    }

    /// What is wrong with `op`'s answer for one widget and family, or nil. Adds `family` to
    /// `withoutBackground` when the answer's view lacks the `containerBackground` iOS 17 requires,
    /// and to `missing` a line for each colour, image or string the bundle lacks.
    private func check(_ op: WireOperation, widget: WidgetDescriptor, family: WidgetFamily, limits: Limits, timeout: Double,
                       withoutBackground: inout [WidgetFamily], missing: inout [String]) -> String? {
        do {
            let r = try request(WireRequest(op: op, kind: widget.kind, family: family, isPreview: true), timeout: timeout)
            guard r.ok else { return r.error ?? "failed with no reason given" }
            missing += missingResources.lines(r, kind: widget.kind)
            guard let entries = r.entries, entries.count == 1 else { return "expected one entry, got \(r.entries?.count ?? 0)" }
            if !withoutBackground.contains(family), ContainerBackgroundCheck.isMissing(in: entries[0].view, family: family) {
                withoutBackground.append(family)
            }
            return LimitsEnforcer.violation(in: r, limits: limits)
        } catch {
            return "\(error)"
        }
    }

    /// Sends `r` to the worker, starting one if there is none; a failed worker is dropped.
    private func request(_ r: WireRequest, timeout: Double) throws -> WireResponse {
        let w = try worker ?? BlockingWorkerClient(pluginPath: path, arguments: workerArguments)
        worker = w
        do { return try w.request(r, timeout: timeout) } catch {
            worker = nil
            throw error
        }
    }

    @discardableResult
    private func fail(_ line: String) -> Bool {
        print(line)
        return false
    }
}
