import FoundationEssentials
import OpenWidgetKit

/// `TimelineReloadPolicy`: when the host asks for the next timeline at the earliest (DESIGN §5).
public enum ReloadPolicy: Equatable, Sendable {
    /// After the last entry's date.
    case atEnd
    /// At this date.
    case after(Date)
    /// Only on request (container change, reload request, config or plugin change).
    case never

    /// From the wire; an absent or unknown policy is `.atEnd`, WidgetKit's default.
    public init(_ wire: WirePolicy?) {
        switch wire?.type {
        case "after": self = wire?.date.map { .after($0) } ?? .atEnd
        case "never": self = .never
        default: self = .atEnd
        }
    }

    /// The earliest next reload for a timeline of `entries` requested at `requestedAt` and
    /// received at `arrivedAt`, never sooner than `minInterval` after the request (a plugin that
    /// answers `.atEnd` with one entry dated now must not make the host spin). nil: none scheduled.
    ///
    /// A timeline that is already over when it arrives (`.atEnd` whose last entry is not after
    /// the arrival, `.after` a date not after it) waits at least `pastTimelineInterval` from the
    /// arrival (WidgetKit waits about 5 minutes). So neither a provider that dates its one entry
    /// "now" nor one slower than its own `.after` interval can reload in a loop and spend its
    /// whole reload budget in a minute.
    public func nextReload(entries: [WireEntry], requestedAt: Date, arrivedAt: Date, minInterval: Double,
                           pastTimelineInterval: Double = 0) -> Date? {
        let floor = requestedAt.addingTimeInterval(minInterval)
        let pastFloor = max(floor, arrivedAt.addingTimeInterval(max(minInterval, pastTimelineInterval)))
        switch self {
        case .atEnd:
            let end = entries.map(\.date).max() ?? arrivedAt
            return end <= arrivedAt ? pastFloor : max(end, floor)
        case .after(let d): return d <= arrivedAt ? pastFloor : max(d, floor)
        case .never: return nil
        }
    }
}
