import OpenWidgetKit
import WidgetRendering

/// `preview`'s warning for a home-screen widget whose view has no `containerBackground`: iOS 17
/// shows "Please adopt containerBackground API" in its place, where the picture here looks fine
/// (`ContainerBackgroundCheck`). One line per widget on stderr, naming every family that lacks
/// it; the pictures are drawn as before. Not thread-safe: used by one command on its thread.
struct PreviewBackgroundCheck {
    /// The families of the widget being previewed whose entries lack the background so far.
    private var families: [WidgetFamily] = []

    /// Notes `family` when any of `entries` (placeholder, snapshot or timeline) lacks it.
    mutating func check(_ entries: [WireEntry], family: WidgetFamily) {
        guard !families.contains(family),
              entries.contains(where: { ContainerBackgroundCheck.isMissing(in: $0.view, family: family) }) else { return }
        families.append(family)
    }

    /// Names widget `kind` when a family of it lacks the background, and starts over for the next.
    mutating func report(kind: String) {
        if !families.isEmpty { ControlClient.printError("preview: warning: " + ContainerBackgroundCheck.line(kind: kind, families: families)) }
        families = []
    }
}
