import FoundationEssentials

/// The data of one moment of a widget, shown from `date` until the next entry's date.
public protocol TimelineEntry {
    var date: Date { get }
    /// How relevant the entry is compared with other widgets' entries (sorts bars, `--sort relevance`).
    var relevance: TimelineEntryRelevance? { get }
}

extension TimelineEntry {
    public var relevance: TimelineEntryRelevance? { nil }
}

/// `TimelineEntryRelevance(score:duration:)`: a score (any non-negative number; only the order
/// across entries matters) that holds for `duration` seconds (0 = until the next entry).
public struct TimelineEntryRelevance: Hashable, Sendable {
    public var score: Float
    public var duration: TimeInterval
    public init(score: Float, duration: TimeInterval = 0) { self.score = score; self.duration = duration }
}

/// When WidgetKit should ask for a new timeline. Policies set the *earliest* next reload;
/// the host may reload later (budget), never earlier unless asked (`WidgetCenter`, a container
/// change, a click).
public struct TimelineReloadPolicy: Hashable, Sendable {
    enum Storage: Hashable, Sendable { case atEnd, after(Date), never }
    let storage: Storage
    /// Reload after the last entry's date has passed.
    public static let atEnd = TimelineReloadPolicy(storage: .atEnd)
    /// Only reload when asked.
    public static let never = TimelineReloadPolicy(storage: .never)
    /// Reload no earlier than `date`.
    public static func after(_ date: Date) -> TimelineReloadPolicy { TimelineReloadPolicy(storage: .after(date)) }

    var wire: WirePolicy {
        switch storage {
        case .atEnd: WirePolicy(type: "atEnd")
        case .never: WirePolicy(type: "never")
        case .after(let d): WirePolicy(type: "after", date: d)
        }
    }
}

/// Entries and the policy for the next reload.
public struct Timeline<EntryType: TimelineEntry> {
    public let entries: [EntryType]
    public let policy: TimelineReloadPolicy
    public init(entries: [EntryType], policy: TimelineReloadPolicy) {
        self.entries = entries
        self.policy = policy
    }
}
