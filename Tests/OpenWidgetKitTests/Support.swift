import FoundationEssentials
@testable import OpenWidgetKit

/// Evaluates a view with default environment (or `family`).
func eval<V: View>(_ view: V, family: WidgetFamily = .systemSmall, redaction: RedactionReasons = []) -> ViewNode {
    var env = EnvironmentValues()
    env.widgetFamily = family
    env.redactionReasons = redaction
    return ViewEvaluator.evaluate(view, environment: env)
}

/// An entry at 1970-01-01 00:00 UTC, the one `EpochProvider` gives for every op.
struct EpochEntry: TimelineEntry { let date: Date }

/// A provider whose placeholder, snapshot and one-entry timeline (`.never`) are `EpochEntry`.
struct EpochProvider: TimelineProvider {
    func placeholder(in context: Context) -> EpochEntry { EpochEntry(date: Date(timeIntervalSince1970: 0)) }
    func getSnapshot(in context: Context, completion: @escaping (EpochEntry) -> Void) { completion(placeholder(in: context)) }
    func getTimeline(in context: Context, completion: @escaping @Sendable (Timeline<EpochEntry>) -> Void) {
        completion(Timeline(entries: [EpochEntry(date: Date(timeIntervalSince1970: 0))], policy: .never))
    }
}

/// Texts of all text nodes, in tree order.
func texts(_ node: ViewNode) -> [String] {
    var out: [String] = []
    node.walk { if $0.kind == .text, let t = $0.text { out.append(t) } }
    return out
}

struct LogHabitIntent: AppIntent {
    static let title: LocalizedStringResource = "Log Habit"
    @Parameter(title: "Habit", default: "water") var habit: String
    init() {}
    init(habit: String) { self.init(); self.habit = habit }
    func perform() async throws -> some IntentResult { .result() }
}

struct ToggleHabitIntent: AppIntent {
    static let title: LocalizedStringResource = "Toggle Habit"
    @Parameter(title: "Completed") var isCompleted: Bool
    init() {}
    init(isCompleted: Bool) { self.init(); self.isCompleted = isCompleted }
    func perform() async throws -> some IntentResult { .result() }
}
