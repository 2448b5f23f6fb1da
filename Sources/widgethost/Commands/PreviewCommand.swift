import ArgumentParser
import FoundationEssentials
import OpenWidgetKit
import WidgetHostCore
import WidgetRendering
#if canImport(Glibc)
import Glibc
#endif

/// `widgethost preview <plugin.so>`: runs a bundle in a worker and prints, per widget kind and
/// family, its placeholder, snapshot and timeline (each entry's date and rendering, and the
/// policy) — the terminal's widget gallery and Xcode preview canvas. The worker reads the app
/// groups' containers of `--config`'s `paths.containers`, as the host's workers do, so `preview`
/// shows what `defaults write` with the same `--config` wrote.
struct PreviewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "preview",
        abstract: "Show a plugin's widgets in every family they support."
    )

    enum OutputFormat: String, ExpressibleByArgument, CaseIterable { case text, pango, waybar, json }

    @Argument(help: "The plugin shared object (.so).")
    var plugin: String

    @Option(name: .long, help: "The config file whose paths.containers the widgets read, as the host's do (default: $XDG_CONFIG_HOME/widgethost/config.json when it exists, else built-in defaults).",
            completion: .file(extensions: ["json"]))
    var config: String?

    @Option(help: "Only this widget kind.")
    var kind: String?

    @Option(help: "A family (systemSmall, …, accessoryInline) or 'all'.")
    var family: String = "all"

    @Flag(help: "Print every timeline entry, not only the first.")
    var timeline = false

    @Option(name: .customLong("param"), help: "An intent parameter, key=value (repeatable).")
    var params: [String] = []

    @Option(help: "Rendering: text, pango, waybar or json (the view tree).")
    var format: OutputFormat = .text

    @Flag(help: "Use Nerd Font glyphs for SF Symbols.")
    var nerdFont = false

    @Option(name: .customLong("png"), help: "Draw every widget × family × entry as PNG files into this directory, and a contact sheet.")
    var pngDirectory: String?

    @Option(name: .customLong("svg"), help: "Draw every widget × family × entry as SVG files into this directory, and a contact sheet.")
    var svgDirectory: String?

    @Option(help: "Pixels per point for --png (1, 2 or 3).")
    var scale: Double = 2

    @Flag(help: "Evaluate the views with colorScheme == .dark (text and pictures), and draw --png/--svg in the dark appearance.")
    var dark = false

    @Option(help: ArgumentHelp("Draw the accented rendering mode (iOS 18's tinted Home Screen) in this tint: widgetAccentable() content in COLOR, the rest in a pale tone of it, backgrounds removed; the views see widgetRenderingMode == .accented. COLOR: a colour name (orange, blue, …) or #RRGGBB.",
                               valueName: "COLOR"))
    var tint: String?

    /// The appearance the worker evaluates the views in (nil: its default, `.light`).
    private var colorScheme: ColorScheme? { dark ? .dark : nil }
    /// The rendering mode the worker evaluates the views in (nil: the family's own).
    private var renderingMode: String? { tint == nil ? nil : "accented" }

    func validate() throws {
        if family != "all" && WidgetFamily(rawValue: family) == nil {
            throw ValidationError("unknown family '\(family)'; one of: all, \(WidgetFamily.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        for p in params where !p.contains("=") { throw ValidationError("--param '\(p)' is not key=value") }
        if ![1.0, 2.0, 3.0].contains(scale) { throw ValidationError("--scale must be 1, 2 or 3") }
        if let tint, AccentTint.style(tint) == nil { throw ValidationError("--tint '\(tint)' is not \(AccentTint.expected)") }
    }

    func run() throws {
        let path = ConfigSource.absolute(plugin)
        let hostConfig: HostConfig
        switch ConfigSource(explicitPath: config).load() {
        case .success(let c): hostConfig = c
        case .failure(let e): throw ValidationError("invalid configuration: \(e)")
        }
        // The worker's app-group containers: the config's, as the daemon gives its workers.
        let workerEnvironment = ["WIDGETHOST_CONTAINERS": hostConfig.paths.containers]
        var worker: BlockingWorkerClient
        let manifest: BundleManifest
        do {
            worker = try BlockingWorkerClient(pluginPath: path, environment: workerEnvironment)
            let described = try worker.request(WireRequest(op: .describe))
            guard described.ok, let m = described.manifest else { throw BlockingWorkerClient.Failure(description: described.error ?? "describe returned no manifest") }
            manifest = m
        } catch {
            ControlClient.printError("preview: \(error)")
            throw ExitCode(1)
        }
        var options = RenderOptions()
        options.locale = .currentTime
        options.glyphs = nerdFont ? .nerdFont : .unicode
        let symbols = PreviewSymbolCheck(glyphs: options.glyphs)
        let missing = MissingResourceReport()
        print("Bundle \(manifest.bundleId) (SDK \(manifest.sdkVersion.isEmpty ? "none" : manifest.sdkVersion), ABI \(manifest.abiVersion))" +
              (manifest.appGroups.isEmpty ? "" : ", app groups: \(manifest.appGroups.joined(separator: ", "))") +
              ((manifest.filesystems ?? []).isEmpty ? "" : ", reads: \(manifest.filesystems!.joined(separator: ", "))"))
        let widgets = manifest.widgets.filter { kind == nil || $0.kind == kind }
        if widgets.isEmpty {
            ControlClient.printError("preview: no widget of kind '\(kind ?? "")' (kinds: \(manifest.widgets.map(\.kind).joined(separator: ", ")))")
            throw ExitCode(1)
        }
        if pngDirectory != nil || svgDirectory != nil {
            let pictures = PreviewPictures(worker: worker, manifest: manifest, png: pngDirectory.map(ConfigSource.absolute),
                                           svg: svgDirectory.map(ConfigSource.absolute), scale: scale, dark: dark, missing: missing, tint: tint)
            let failed: Int
            do {
                failed = try pictures.run(widgets: widgets, families: { w in family == "all" ? w.families : w.families.filter { $0.rawValue == family } },
                                          configuration: parseParams(for:))
            } catch let e as PreviewPictures.Failure {
                ControlClient.printError("preview: \(e)")
                throw ExitCode(1)
            }
            if failed > 0 { throw ExitCode(1) }
            return
        }
        var failures = 0
        var background = PreviewBackgroundCheck()
        for widget in widgets {
            print("")
            print("■ \(widget.displayName) — kind \(widget.kind), \(widget.configuration)")
            if !widget.description.isEmpty { print("  \(widget.description)") }
            if !widget.parameters.isEmpty {
                print("  parameters: " + widget.parameters.map { p in
                    "\(p.name) (\(p.type)\(p.options.map { ": " + $0.map(\.value).joined(separator: "|") } ?? ""))"
                }.joined(separator: ", "))
            }
            let configuration = try parseParams(for: widget)
            let families = family == "all" ? widget.families : widget.families.filter { $0.rawValue == family }
            if families.isEmpty { print("  (does not support \(family))") }
            for fam in families {
                print("")
                print("┄┄ \(widget.kind) · \(fam.rawValue) ┄┄")
                for op in [WireOperation.placeholder, .snapshot, .timeline] {
                    do {
                        let response = try worker.request(WireRequest(op: op, kind: widget.kind, family: fam, configuration: configuration, isPreview: op != .timeline,
                                                                      colorScheme: colorScheme, renderingMode: renderingMode))
                        guard response.ok else { throw BlockingWorkerClient.Failure(description: response.error ?? "error") }
                        background.check(response.entries ?? [], family: fam)
                        for line in missing.lines(response, kind: widget.kind) { ControlClient.printError("preview: warning: " + line) }
                        show(op, response, widget: widget.kind, family: fam, options: options, symbols: symbols)
                    } catch {
                        failures += 1
                        print("\(op.rawValue): ERROR \(error)")
                        // A crash in this widget's code must not hide the others: name it, and
                        // go on in a fresh worker.
                        if worker.hasExited {
                            ControlClient.printError("preview: \(widget.kind) (\(fam.rawValue)) \(op.rawValue) crashed its worker: \(error)")
                            guard let fresh = try? BlockingWorkerClient(pluginPath: path, environment: workerEnvironment) else { throw ExitCode(1) }
                            worker = fresh
                        }
                    }
                }
            }
            background.report(kind: widget.kind)
        }
        failures += showPreviews(manifest, worker: &worker, path: path, environment: workerEnvironment, options: options, symbols: symbols)
        if failures > 0 { throw ExitCode(1) }
    }

    /// The bundle's `#Preview`s, by name, each rendered as `timeline` is. Returns the failures.
    private func showPreviews(_ manifest: BundleManifest, worker: inout BlockingWorkerClient, path: String,
                              environment: [String: String], options: RenderOptions, symbols: PreviewSymbolCheck) -> Int {
        let previews = (manifest.previews ?? []).filter { p in
            (kind == nil || p.kind == kind) && (family == "all" || (p.family?.rawValue ?? family) == family)
        }
        guard !previews.isEmpty else { return 0 }
        print("")
        print("Previews: " + previews.map { "\"\($0.name)\"" }.joined(separator: ", "))
        var failures = 0
        for p in previews {
            let fam = p.family ?? WidgetFamily(rawValue: family) ?? .systemMedium
            print("")
            print("▶ \"\(p.name)\"" + (p.kind.map { " — \($0) · \(fam.rawValue)" } ?? " — view · \(fam.rawValue)"))
            do {
                let response = try worker.request(WireRequest(op: .preview, kind: p.id, family: fam, isPreview: true, colorScheme: colorScheme,
                                                              renderingMode: renderingMode))
                guard response.ok else { throw BlockingWorkerClient.Failure(description: response.error ?? "error") }
                let entries = response.entries ?? []
                if format != .json { for e in entries { symbols.check(e.view, source: "preview \"\(p.name)\"") } }
                for (i, e) in entries.enumerated() where timeline || i == 0 {
                    if entries.count > 1 { print("[\(i)] \(Self.timestamp(e.date))") }
                    print(render(e, family: fam, options: options, at: e.date))
                }
                if !timeline && entries.count > 1 { print("… \(entries.count - 1) more (--timeline shows them)") }
            } catch {
                failures += 1
                print("preview: ERROR \(error)")
                if worker.hasExited, let fresh = try? BlockingWorkerClient(pluginPath: path, environment: environment) { worker = fresh }
            }
        }
        return failures
    }

    private func parseParams(for widget: WidgetDescriptor) throws -> [String: JSONValue] {
        var out: [String: JSONValue] = [:]
        for p in params {
            let key = String(p[..<p.firstIndex(of: "=")!]), raw = String(p[p.index(after: p.firstIndex(of: "=")!)...])
            guard let d = widget.parameters.first(where: { $0.name == key }) else { continue }
            switch d.type {
            case "bool": out[key] = .bool(raw == "true" || raw == "1" || raw == "yes")
            case "int", "double", "date":
                guard let n = Double(raw) else { throw ValidationError("--param \(key) expects a number, got '\(raw)'") }
                out[key] = .number(n)
            case "enum", "entity":
                if let opts = d.options, !opts.contains(where: { $0.value == raw }) {
                    throw ValidationError("--param \(key) must be one of \(opts.map(\.value).joined(separator: ", ")), got '\(raw)'")
                }
                out[key] = .string(raw)
            default: out[key] = .string(raw)
            }
        }
        return out
    }

    private func show(_ op: WireOperation, _ response: WireResponse, widget: String, family: WidgetFamily, options: RenderOptions,
                      symbols: PreviewSymbolCheck) {
        let entries = response.entries ?? []
        if format != .json { for e in entries { symbols.check(e.view, source: widget) } }
        switch op {
        case .timeline:
            let policy = response.policy.map { p in p.date.map { "\(p.type) \(Self.timestamp($0))" } ?? p.type } ?? "?"
            print("timeline: \(entries.count) entr\(entries.count == 1 ? "y" : "ies"), policy \(policy)")
            for (i, e) in entries.enumerated() where timeline || i == 0 {
                print("[\(i)] \(Self.timestamp(e.date))" + (e.relevance.map { " relevance \($0.score)" } ?? ""))
                print(render(e, family: family, options: options, at: e.date))
            }
            if !timeline && entries.count > 1 { print("… \(entries.count - 1) more (--timeline shows them)") }
        default:
            print("\(op.rawValue):")
            if let e = entries.first { print(render(e, family: family, options: options, at: Date())) }
        }
    }

    private func render(_ entry: WireEntry, family: WidgetFamily, options: RenderOptions, at date: Date) -> String {
        var options = options
        options.now = max(date, Date())
        switch format {
        case .text:
            let text = TextRenderer.render(entry.view, family: family, options: options)
            return family.isAccessory && family != .accessoryCircular ? text : Self.boxed(text, columns: family.cellGrid.columns)
        case .pango:
            return PangoRenderer.render(entry.view, family: family, options: options)
        case .waybar:
            let out = WaybarRenderer.render(entry.view, family: family, options: options)
            return (try? WireCodec.encode(out)).map { String(decoding: $0, as: UTF8.self) } ?? ""
        case .json:
            let e = WireCodec.encoder()
            e.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
            return (try? e.encode(entry.view)).map { String(decoding: $0, as: UTF8.self) } ?? ""
        }
    }

    /// Frames a rendering so the widget's bounds are visible in the terminal.
    static func boxed(_ text: String, columns: Int) -> String {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let width = max(columns, lines.map(displayWidth(of:)).max() ?? 0)
        var out = ["┌" + String(repeating: "─", count: width) + "┐"]
        for l in lines { out.append("│" + l + String(repeating: " ", count: max(0, width - displayWidth(of: l))) + "│") }
        out.append("└" + String(repeating: "─", count: width) + "┘")
        return out.joined(separator: "\n")
    }

    static func timestamp(_ date: Date) -> String {
        var t = time_t(date.timeIntervalSince1970)
        var tmv = tm()
        localtime_r(&t, &tmv)
        var buf = [CChar](repeating: 0, count: 32)
        let n = strftime(&buf, 32, "%Y-%m-%d %H:%M:%S", &tmv)
        return String(decoding: buf[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
