import FoundationEssentials

/// Supplies the entries of an `IntentConfiguration` widget (the SiriKit form, before iOS 17):
/// `TimelineProvider`'s completion-handler calls with the user's configuration `INIntent`.
/// Same threading rule as `TimelineProvider`: called on the worker's request thread, one call at
/// a time; the handlers may be called from any thread, once (a second call is ignored).
public protocol IntentTimelineProvider {
    associatedtype Entry: TimelineEntry
    associatedtype Intent: INIntent
    typealias Context = TimelineProviderContext
    /// A quick, data-free entry; rendered redacted.
    func placeholder(in context: Context) -> Entry
    func getSnapshot(for configuration: Intent, in context: Context, completion: @escaping @Sendable (Entry) -> Void)
    func getTimeline(for configuration: Intent, in context: Context, completion: @escaping @Sendable (Timeline<Entry>) -> Void)
    /// Configurations to offer where a widget cannot be edited; accepted, not shown.
    func recommendations() -> [IntentRecommendation<Intent>]
}

extension IntentTimelineProvider {
    public func recommendations() -> [IntentRecommendation<Intent>] { [] }
}

/// A widget the user configures through the parameters of an `INIntent` subclass, as in
/// WidgetKit before iOS 17. The parameters are described in the manifest and configured exactly
/// as an `AppIntentConfiguration`'s (`config.json` `"parameters"`, `widgethost configure`, the
/// Edit Widget form); the provider receives an intent with them set.
public struct IntentConfiguration<Intent: INIntent, Content: View>: WidgetConfiguration {
    public let _widgetRecords: [WidgetRecord]

    public init<Provider: IntentTimelineProvider>(kind: String, intent: Intent.Type, provider: Provider,
                                                  @ViewBuilder content: @escaping (Provider.Entry) -> Content)
        where Provider.Intent == Intent {
        _widgetRecords = [WidgetRecord(
            kind: kind, displayName: kind, description: "", families: defaultFamilies,
            configurationType: "IntentConfiguration", parameters: { IntentRegistry.parameterDescriptors(ofValue: Intent()) },
            runner: INIntentWidgetRunner<Provider, Content>(provider: provider, content: content))]
    }
}

/// Runs an `IntentTimelineProvider`: a fresh intent per request with the configuration's values
/// (entities resolved through their queries), then the provider's completion-handler call.
struct INIntentWidgetRunner<Provider: IntentTimelineProvider, Content: View>: ProviderWidgetRunner {
    let provider: Provider
    let content: (Provider.Entry) -> Content

    func placeholderEntry(_ context: TimelineProviderContext) -> Provider.Entry { provider.placeholder(in: context) }

    private func intent(_ configuration: [String: JSONValue]) throws -> Provider.Intent {
        try Blocking.asyncThrowing {
            let intent = Provider.Intent()
            try await IntentRegistry.assign(configuration, to: intent, typeName: String(reflecting: Provider.Intent.self))
            return intent
        }
    }

    func snapshot(_ context: TimelineProviderContext, configuration: [String: JSONValue]) throws -> [WireEntry] {
        let intent = try intent(configuration)
        let entry = Blocking.completion { provider.getSnapshot(for: intent, in: context, completion: $0) }
        return [Self.render(entry, content, context, placeholder: false)]
    }

    func timeline(_ context: TimelineProviderContext, configuration: [String: JSONValue]) throws -> ([WireEntry], WirePolicy) {
        let intent = try intent(configuration)
        let timeline = Blocking.completion { provider.getTimeline(for: intent, in: context, completion: $0) }
        return (timeline.entries.map { Self.render($0, content, context, placeholder: false) }, timeline.policy.wire)
    }
}
