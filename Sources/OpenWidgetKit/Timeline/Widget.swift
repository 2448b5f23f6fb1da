import FoundationEssentials

/// A widget: one kind, its configuration and its view, as in WidgetKit.
public protocol Widget {
    associatedtype Body: WidgetConfiguration
    init()
    var body: Body { get }
    /// Bundle identifier when this widget is the `@main` type; default: its qualified name.
    static var widgetBundleIdentifier: String? { get }
    /// App groups when this widget is the `@main` type (the App Groups entitlement); default none.
    static var widgetAppGroups: [String] { get }
}

/// How a widget is configured and displayed. Created by `StaticConfiguration` or
/// `AppIntentConfiguration` and refined by the modifiers below.
public protocol WidgetConfiguration {
    /// The widgets this configuration declares, as the SDK runs them. Not for authors.
    var _widgetRecords: [WidgetRecord] { get }
}

/// A configuration with its record rewritten by a modifier.
public struct ModifiedWidgetConfiguration: WidgetConfiguration {
    public let _widgetRecords: [WidgetRecord]
}

extension WidgetConfiguration {
    private func modified(_ change: (inout WidgetRecord) -> Void) -> ModifiedWidgetConfiguration {
        ModifiedWidgetConfiguration(_widgetRecords: _widgetRecords.map { var r = $0; change(&r); return r })
    }
    public func configurationDisplayName(_ name: String) -> some WidgetConfiguration { modified { $0.displayName = name } }
    public func configurationDisplayName(_ name: LocalizedStringResource) -> some WidgetConfiguration {
        modified { $0.displayName = name.localized }
    }
    public func description(_ text: String) -> some WidgetConfiguration { modified { $0.description = text } }
    public func description(_ text: LocalizedStringResource) -> some WidgetConfiguration { modified { $0.description = text.localized } }
    /// Families the widget can be shown in. Default: every system family (as WidgetKit on iOS).
    public func supportedFamilies(_ families: [WidgetFamily]) -> some WidgetConfiguration {
        modified { $0.families = families }
    }
    /// The content reaches the widget's edges: the root's `modifiers.contentMargins` is zero
    /// instead of the family's default (`WidgetFamily.defaultContentMargins`).
    public func contentMarginsDisabled() -> some WidgetConfiguration { self.modified { $0.contentMarginsDisabled = true } }
    /// Accepted for source compatibility.
    public func containerBackgroundRemovable(_ removable: Bool = true) -> some WidgetConfiguration { self.modified { _ in } }
}

/// A widget as the SDK runs it: what `describe` reports plus the type-erased provider and view.
public struct WidgetRecord {
    public var kind: String
    public var displayName: String
    public var description: String
    public var families: [WidgetFamily]
    /// `.contentMarginsDisabled()` was applied.
    public var contentMarginsDisabled = false
    var configurationType: String
    /// Describes the parameters when the bundle is described (on the worker's request thread):
    /// an `AppEntity` parameter's options come from its query then, not when the bundle loads.
    var parameters: () -> [ParameterDescriptor]
    let runner: any WidgetRunner

    var descriptor: WidgetDescriptor {
        WidgetDescriptor(kind: kind, displayName: displayName, description: description, families: families,
                         parameters: parameters(), configuration: configurationType)
    }
}

/// Default families when a configuration does not call `supportedFamilies`.
let defaultFamilies: [WidgetFamily] = [.systemSmall, .systemMedium, .systemLarge]

/// A widget configured by its developer only.
public struct StaticConfiguration<Content: View>: WidgetConfiguration {
    public let _widgetRecords: [WidgetRecord]

    public init<Provider: TimelineProvider>(kind: String, provider: Provider,
                                            @ViewBuilder content: @escaping (Provider.Entry) -> Content) {
        _widgetRecords = [WidgetRecord(
            kind: kind, displayName: kind, description: "", families: defaultFamilies,
            configurationType: "StaticConfiguration", parameters: { [] },
            runner: StaticWidgetRunner(provider: provider, content: content))]
    }
}

/// A widget the user configures through the `@Parameter`s of a `WidgetConfigurationIntent`.
public struct AppIntentConfiguration<Intent: WidgetConfigurationIntent, Content: View>: WidgetConfiguration {
    public let _widgetRecords: [WidgetRecord]

    public init<Provider: AppIntentTimelineProvider>(kind: String, intent: Intent.Type = Intent.self, provider: Provider,
                                                     @ViewBuilder content: @escaping (Provider.Entry) -> Content)
        where Provider.Intent == Intent {
        IntentRegistry.register(Intent.self)
        _widgetRecords = [WidgetRecord(
            kind: kind, displayName: kind, description: "", families: defaultFamilies,
            configurationType: "AppIntentConfiguration", parameters: { IntentRegistry.parameterDescriptors(of: Intent.self) },
            runner: IntentWidgetRunner<Provider, Content>(provider: provider, content: content))]
    }
}

/// Several widgets shipped in one plugin, as in WidgetKit.
public protocol WidgetBundle {
    associatedtype Body: Widget
    init()
    @WidgetBundleBuilder var body: Body { get }
    /// Bundle identifier when this bundle is the `@main` type; default: its qualified name.
    static var widgetBundleIdentifier: String? { get }
    /// App groups of this bundle (the App Groups entitlement on iOS): the host creates and
    /// watches `containers/<group>/` for each. Default none.
    static var widgetAppGroups: [String] { get }
}

/// The widgets of a bundle, in declaration order (what `WidgetBundleBuilder` produces).
public struct WidgetGroup: Widget {
    let records: [WidgetRecord]
    public init() { records = [] }
    init(records: [WidgetRecord]) { self.records = records }
    public var body: ModifiedWidgetConfiguration { ModifiedWidgetConfiguration(_widgetRecords: records) }
}

/// Builds a bundle's widget list: plain lists, `if` (a widget only where it applies, e.g. a
/// battery widget on machines with a battery), `if`/`else` and `for` loops.
@resultBuilder
public enum WidgetBundleBuilder {
    public static func buildExpression<W: Widget>(_ widget: W) -> WidgetGroup {
        WidgetGroup(records: widget.body._widgetRecords)
    }
    public static func buildBlock(_ groups: WidgetGroup...) -> WidgetGroup {
        WidgetGroup(records: groups.flatMap(\.records))
    }
    public static func buildOptional(_ group: WidgetGroup?) -> WidgetGroup { group ?? WidgetGroup() }
    public static func buildEither(first group: WidgetGroup) -> WidgetGroup { group }
    public static func buildEither(second group: WidgetGroup) -> WidgetGroup { group }
    public static func buildArray(_ groups: [WidgetGroup]) -> WidgetGroup { WidgetGroup(records: groups.flatMap(\.records)) }
    public static func buildLimitedAvailability(_ group: WidgetGroup) -> WidgetGroup { group }
}
