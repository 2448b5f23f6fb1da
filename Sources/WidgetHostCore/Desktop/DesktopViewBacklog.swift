import FoundationEssentials

/// What one subscriber of the desktop view stream is owed and not yet sent, coalesced to the
/// latest state per widget, and when it is sent (docs/architecture.md "The view stream").
///
/// A message is sent only while the subscriber's connection holds no unwritten bytes (the
/// kernel's socket buffer took everything sent so far); otherwise what changes meanwhile waits
/// here, one `Widget` per id however many times it changed, so a subscriber that does not read
/// costs at most one waiting message and one state per desktop widget — never a queue that grows.
/// A subscriber held back for `stallSeconds` (it took no bytes in that time while changes
/// waited) has passed the backlog cap and is dropped; it gets a fresh snapshot when it comes back.
///
/// Times are monotonic seconds. Pure value type; the stream keeps one per subscriber on the loop
/// thread.
public struct DesktopViewBacklog: Sendable {
    /// What to do for the subscriber now.
    public enum Step: Equatable, Sendable {
        /// Nothing is owed.
        case idle
        /// Write this message (everything owed, in one line).
        case send(DesktopViewMessage)
        /// The connection still holds unwritten bytes: wait until it drains or `deadline`.
        case hold(deadline: Double)
        /// Held back too long: close the connection, with the reason.
        case drop(String)
    }

    public let stallSeconds: Double
    /// The layout of a snapshot owed (then `widgets` is everything), nil when only changes are.
    private var snapshotLayout: DesktopViewMessage.Layout?
    private var widgets: [String: DesktopViewMessage.Widget] = [:]
    private var removed: Set<String> = []
    /// When the subscriber was first held back with something owed (nil: not held back).
    public private(set) var heldSince: Double?

    public init(stallSeconds: Double = 30) { self.stallSeconds = stallSeconds }

    /// Nothing is owed.
    public var isEmpty: Bool { snapshotLayout == nil && widgets.isEmpty && removed.isEmpty }

    /// Adds `message` to what is owed: a snapshot replaces everything, a change replaces the
    /// owed state of the widgets it names.
    public mutating func add(_ message: DesktopViewMessage) {
        if message.snapshot, let layout = message.layout {
            snapshotLayout = layout
            widgets = [:]
            removed = []
        }
        for w in message.widgets {
            widgets[w.id] = w
            removed.remove(w.id)
        }
        for id in message.removed {
            widgets[id] = nil
            // A snapshot owed is everything: an id missing from it needs no `removed`.
            if snapshotLayout == nil { removed.insert(id) }
        }
    }

    /// The step for a connection holding `unwrittenBytes` not yet taken by the kernel, at `now`.
    public mutating func next(unwrittenBytes: Int, now: Double) -> Step {
        guard !isEmpty else { heldSince = nil; return .idle }
        if unwrittenBytes > 0 {
            let since = heldSince ?? now
            heldSince = since
            if now - since >= stallSeconds {
                return .drop("the subscriber read nothing for \(Int(stallSeconds)) s while changes waited")
            }
            return .hold(deadline: since + stallSeconds)
        }
        heldSince = nil
        // Grid order in a snapshot (as the layout lists them), by id otherwise.
        let order = Dictionary((snapshotLayout?.widgets ?? []).enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
        let sorted = widgets.values.sorted { (order[$0.id] ?? Int.max, $0.id) < (order[$1.id] ?? Int.max, $1.id) }
        let message = DesktopViewMessage(snapshot: snapshotLayout != nil, layout: snapshotLayout, widgets: sorted, removed: removed.sorted())
        snapshotLayout = nil
        widgets = [:]
        removed = []
        return .send(message)
    }
}
