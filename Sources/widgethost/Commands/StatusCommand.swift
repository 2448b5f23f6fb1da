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
        let lines = StatusText.lines(s, now: Date())
        // The pid line, then what the operator must know, then the rest.
        for line in lines.prefix(1) { print(line) }
        for w in s.warnings ?? [] { print("warning: \(w)") }
        for line in lines.dropFirst() { print(line) }
    }
}
