import ArgumentParser
import FoundationEssentials
import WidgetHostCore

/// `widgethost status [--json]`: bundles, workers and widget instances of the running host.
struct StatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show the running host's bundles and widget instances (WidgetCenter.currentConfigurations)."
    )

    @Flag(name: .long, help: "Print the status as one JSON object.")
    var json = false

    @OptionGroup var control: ControlOptions

    func run() throws {
        let r = try ControlClient.run(ControlRequest(op: .status), options: control)
        guard let s = r.status else { print("no status"); return }
        if json {
            let e = JSONEncoder()
            e.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
            e.dateEncodingStrategy = .iso8601
            print(String(decoding: (try? e.encode(s)) ?? Data(), as: UTF8.self))
            return
        }
        print("widgethost pid \(s.pid.map(String.init) ?? "?")")
        for w in s.warnings ?? [] { print("warning: \(w)") }
        for b in s.bundles {
            print("bundle \(b.name) (\(b.bundleId)): worker \(b.worker); kinds \(b.kinds.joined(separator: ", "))")
        }
        for r in s.rejected { print("rejected \(r.name): \(r.reason)") }
        let now = Date()
        func ago(_ d: Date?) -> String {
            guard let d else { return "-" }
            let s = Int(now.timeIntervalSince(d).rounded())
            return s >= 0 ? "\(s) s ago" : "in \(-s) s"
        }
        for w in s.widgets {
            print("\(w.id)  [\(w.bundle) \(w.kind) \(w.family)]")
            print("  text: \(w.text ?? "-")" + (w.relevance.map { "  relevance \($0)" } ?? ""))
            print("  last reload: \(ago(w.lastReload)) (\(w.lastReloadReason ?? "-"))"
                  + (w.lastReloadSeconds.map { ", answered in \(($0 * 10_000).rounded() / 10) ms" } ?? ""))
            print("  next reload: \(w.nextReload == nil ? "on request" : ago(w.nextReload) + " (\(w.nextReloadReason ?? ""))"); timeline requests \(w.timelineRequests); entries \(w.entries)")
            if let e = w.lastError { print("  error: \(e) (\(w.consecutiveFailures) in a row)") }
            if !w.parameters.isEmpty { print("  parameters: \(w.parameters.keys.sorted().map { "\($0)=\(w.parameters[$0]!)" }.joined(separator: " "))") }
            for c in w.controls { print("  control \(c.id): \(c.kind) \"\(c.title ?? c.intent)\"" + (c.isOn.map { " (\($0 ? "on" : "off"))" } ?? "")) }
            if let u = w.url { print("  url: \(u)") }
        }
    }
}
