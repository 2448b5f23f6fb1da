import FoundationEssentials

/// What the provider is asked for: the family and size it renders for, and whether the entry is
/// for a preview (gallery, `widgethost preview`) rather than the live widget.
public struct TimelineProviderContext: Sendable {
    public let family: WidgetFamily
    /// Display size in points (the family's nominal size unless the host says otherwise).
    public let displaySize: DisplaySize
    public let isPreview: Bool
    /// The widget's `.contentMarginsDisabled()`: its root gets zero content margins.
    var contentMarginsDisabled = false
    /// The appearance the views are evaluated in (the request's `colorScheme`).
    var colorScheme: ColorScheme = .light
    /// The rendering mode the views are evaluated in (the request's `renderingMode`, else the
    /// family's: `vibrant` on the Lock Screen, `fullColor` on the Home Screen).
    var renderingMode: WidgetRenderingMode?

    public init(family: WidgetFamily, displaySize: DisplaySize? = nil, isPreview: Bool = false) {
        self.family = family
        self.displaySize = displaySize ?? family.nominalSize
        self.isPreview = isPreview
    }
}

/// Supplies the entries of a `StaticConfiguration` widget, as in WidgetKit.
///
/// Called on the worker's request thread (never the main thread), one call at a time. The
/// completion handlers may be called from any thread or queue, including `DispatchQueue.main`,
/// at any later time within the call's deadline; calling one twice is ignored. The handlers are
/// `@Sendable`, so an implementation may hand them to another queue; an implementation written
/// as in WidgetKit, without `@Sendable`, still conforms.
public protocol TimelineProvider {
    associatedtype Entry: TimelineEntry
    typealias Context = TimelineProviderContext
    /// A quick, data-free entry; rendered redacted.
    func placeholder(in context: Context) -> Entry
    func getSnapshot(in context: Context, completion: @escaping @Sendable (Entry) -> Void)
    func getTimeline(in context: Context, completion: @escaping @Sendable (Timeline<Entry>) -> Void)
}

/// Supplies the entries of an `AppIntentConfiguration` widget: the async variant that receives
/// the user's configuration intent. Same threading rule as `TimelineProvider`.
public protocol AppIntentTimelineProvider {
    associatedtype Entry: TimelineEntry
    associatedtype Intent: WidgetConfigurationIntent
    typealias Context = TimelineProviderContext
    func placeholder(in context: Context) -> Entry
    func snapshot(for configuration: Intent, in context: Context) async -> Entry
    func timeline(for configuration: Intent, in context: Context) async -> Timeline<Entry>
}
