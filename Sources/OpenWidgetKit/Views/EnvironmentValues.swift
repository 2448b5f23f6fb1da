import FoundationEssentials

/// Why a view is redacted.
public struct RedactionReasons: OptionSet, Hashable, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    /// The view is a placeholder (`TimelineProvider.placeholder(in:)`).
    public static let placeholder = RedactionReasons(rawValue: 1 << 0)
    public static let privacy = RedactionReasons(rawValue: 1 << 1)
    public static let invalidated = RedactionReasons(rawValue: 1 << 2)
}

/// The values `@Environment` reads during an evaluation. Set by the SDK per request
/// (family, display size, preview flag, redaction) and changed for a subtree by `.environment`.
public struct EnvironmentValues: Sendable {
    public var widgetFamily: WidgetFamily = .systemSmall
    public var redactionReasons: RedactionReasons = []
    public var showsWidgetContainerBackground: Bool = true
    public var displaySize: DisplaySize = WidgetFamily.systemSmall.nominalSize
    public var isPreview: Bool = false
    public init() {}
}
