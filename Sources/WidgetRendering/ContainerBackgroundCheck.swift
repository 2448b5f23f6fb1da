import OpenWidgetKit

/// Whether a widget's view would show iOS 17's "Please adopt containerBackground API" instead of
/// itself, and the port's checklist line that says so. iOS 17 asks every home-screen (`system*`)
/// widget for a `containerBackground(for: .widget)` somewhere in its view (the modifier is a
/// preference, so any node may carry it); the accessory (lock-screen) families do not need one.
/// The picture is drawn as before: the check only names the widget (`preview`, `validate`, the
/// host's log). Pure; any thread.
public enum ContainerBackgroundCheck {
    /// Whether `view`, shown in `family`, lacks the `containerBackground` iOS 17 requires there.
    public static func isMissing(in view: ViewNode, family: WidgetFamily) -> Bool {
        guard !family.isAccessory else { return false }
        return TreeQuery.first(in: view) { $0.modifiers?.containerBackground != nil } == nil
    }

    /// The line naming widget `kind` in `families` (those its view lacks the background in).
    public static func line(kind: String, families: [WidgetFamily]) -> String {
        "\(kind) (\(families.map(\.rawValue).joined(separator: ", "))): no containerBackground — iOS 17 shows "
            + "\"Please adopt containerBackground API\" instead of this widget; add .containerBackground(for: .widget) { … }"
    }
}
