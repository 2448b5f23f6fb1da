import FoundationEssentials
import OpenWidgetKit

/// Why a reload is asked for. Budgeted reasons spend the instance's daily reload budget
/// (DESIGN §6); the others are free.
public enum ReloadReason: Sendable, Equatable {
    /// The first timeline of an instance (after start, or when it appears). Free.
    case firstLoad
    /// The policy's date came (`.atEnd`, `.after`). Budgeted.
    case scheduled(String)
    /// A reload request: `WidgetCenter.reloadTimelines`, `widgethost reload`, a container change. Budgeted.
    case request(String)
    /// The one reload after an interaction (a click on a Button/Toggle or the widget). Free.
    case interaction(String)
    /// A new plugin binary or a configuration change. Free.
    case changed(String)
    /// A retry after a failed reload (held back by exponential backoff instead). Free.
    case retry(String)

    public var isBudgeted: Bool {
        switch self {
        case .scheduled, .request: true
        case .firstLoad, .interaction, .changed, .retry: false
        }
    }

    public var text: String {
        switch self {
        case .firstLoad: "first load"
        case .scheduled(let s), .request(let s), .interaction(let s), .changed(let s), .retry(let s): s
        }
    }
}

/// What the scheduler asks of the limits layer (implemented by `LimitsEnforcer`). Loop thread only.
public protocol TimelineLimits: AnyObject {
    /// Charges one budgeted reload of `spec` and returns nil, or returns when the budget next allows one.
    func admitReload(_ spec: InstanceSpec, now: Date) -> Date?
    /// Shortest wait before reloading a timeline that was already over when it arrived.
    func pastTimelineReloadSeconds(_ spec: InstanceSpec) -> Double
    /// Why `response` breaks a limit (too many entries, a tree too large or too deep), or nil.
    func violation(in response: WireResponse, for spec: InstanceSpec) -> String?
    /// A timeline was accepted (persist it).
    func accepted(entries: [WireEntry], policy: WirePolicy?, for spec: InstanceSpec)
    /// The last good timeline saved for `spec`, if any (shown at start before any plugin answers).
    func restoredEntries(for spec: InstanceSpec) -> [WireEntry]?
}
