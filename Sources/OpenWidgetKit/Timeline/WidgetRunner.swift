import FoundationEssentials

/// Runs one widget's provider and evaluates its view per entry. Called on the worker's request
/// thread, one call at a time; blocking until the provider answers.
protocol WidgetRunner {
    func placeholder(_ context: TimelineProviderContext) -> [WireEntry]
    func snapshot(_ context: TimelineProviderContext, configuration: [String: JSONValue]) throws -> [WireEntry]
    func timeline(_ context: TimelineProviderContext, configuration: [String: JSONValue]) throws -> ([WireEntry], WirePolicy)
    /// Entries a `#Preview` gives, rendered with this widget's view (entries of another type are skipped).
    func render(entries: [any TimelineEntry], _ context: TimelineProviderContext) -> [WireEntry]
}

/// A runner over one provider and its view: the `#Preview` entries and the placeholder are
/// rendered the same way whatever the provider's kind.
protocol ProviderWidgetRunner: WidgetRunner {
    associatedtype Entry: TimelineEntry
    associatedtype Content: View
    var content: (Entry) -> Content { get }
    func placeholderEntry(_ context: TimelineProviderContext) -> Entry
}

extension ProviderWidgetRunner {
    func render(entries: [any TimelineEntry], _ context: TimelineProviderContext) -> [WireEntry] {
        entries.compactMap { $0 as? Entry }.map { Self.render($0, content, context, placeholder: false) }
    }

    func placeholder(_ context: TimelineProviderContext) -> [WireEntry] {
        [Self.render(placeholderEntry(context), content, context, placeholder: true)]
    }
}

extension WidgetRunner {
    /// Evaluates the view of one entry for the context's family.
    static func render<E: TimelineEntry, V: View>(_ entry: E, _ content: (E) -> V, _ context: TimelineProviderContext,
                                                   placeholder: Bool) -> WireEntry {
        var env = EnvironmentValues()
        env.widgetFamily = context.family
        env.displaySize = context.displaySize
        env.isPreview = context.isPreview
        env.colorScheme = context.colorScheme
        env.widgetRenderingMode = context.renderingMode ?? (context.family.isAccessory ? .vibrant : .fullColor)
        env.widgetContentMargins = EdgeInsets(context.family.defaultContentMargins)
        if placeholder { env.redactionReasons = .placeholder }
        let margins = context.contentMarginsDisabled ? EdgeInsetsSpec(top: 0, leading: 0, bottom: 0, trailing: 0)
                                                     : context.family.defaultContentMargins
        env.geometryArea = GeometryArea(
            size: CGSize(width: context.displaySize.width - margins.leading - margins.trailing,
                         height: context.displaySize.height - margins.top - margins.bottom),
            origin: CGPoint(x: margins.leading, y: margins.top))
        // The content closure runs in the request's environment too: what it makes there (a
        // dynamic `UIColor` resolved into a `Color`) sees the request's appearance.
        var node = ViewRenderDeadline.run {
            EnvironmentValues.$current.withValue(env) { ViewEvaluator.evaluate(content(entry), environment: env) }
        }
        // The root says how far the content stays from the widget's edges (DESIGN §11 layouts
        // and the text grid inset it); zero after `.contentMarginsDisabled()`.
        var m = node.mods
        m.contentMargins = context.contentMarginsDisabled ? EdgeInsetsSpec(top: 0, leading: 0, bottom: 0, trailing: 0)
                                                          : context.family.defaultContentMargins
        // A right-to-left locale lays the whole widget out right to left (the host mirrors it).
        if env.layoutDirection == .rightToLeft, m.other?[LayoutDirection.modifierKey] == nil {
            m.other = (m.other ?? [:]).merging([LayoutDirection.modifierKey: .string(LayoutDirection.rightToLeft.rawValue)]) { a, _ in a }
        }
        node.modifiers = m
        let relevance = entry.relevance.map { WireRelevance(score: Double($0.score), duration: $0.duration) }
        return WireEntry(date: entry.date, relevance: relevance, view: node)
    }
}

struct StaticWidgetRunner<Provider: TimelineProvider, Content: View>: ProviderWidgetRunner {
    let provider: Provider
    let content: (Provider.Entry) -> Content

    func placeholderEntry(_ context: TimelineProviderContext) -> Provider.Entry { provider.placeholder(in: context) }

    func snapshot(_ context: TimelineProviderContext, configuration: [String: JSONValue]) throws -> [WireEntry] {
        let entry = Blocking.completion { provider.getSnapshot(in: context, completion: $0) }
        return [Self.render(entry, content, context, placeholder: false)]
    }

    func timeline(_ context: TimelineProviderContext, configuration: [String: JSONValue]) throws -> ([WireEntry], WirePolicy) {
        let timeline = Blocking.completion { provider.getTimeline(in: context, completion: $0) }
        return (timeline.entries.map { Self.render($0, content, context, placeholder: false) }, timeline.policy.wire)
    }
}

struct IntentWidgetRunner<Provider: AppIntentTimelineProvider, Content: View>: ProviderWidgetRunner {
    let provider: Provider
    let content: (Provider.Entry) -> Content

    func placeholderEntry(_ context: TimelineProviderContext) -> Provider.Entry { provider.placeholder(in: context) }

    func snapshot(_ context: TimelineProviderContext, configuration: [String: JSONValue]) throws -> [WireEntry] {
        let provider = self.provider
        let entry = try Blocking.asyncThrowing {
            await provider.snapshot(for: try await IntentRegistry.resolve(Provider.Intent.self, parameters: configuration), in: context)
        }
        return [Self.render(entry, content, context, placeholder: false)]
    }

    func timeline(_ context: TimelineProviderContext, configuration: [String: JSONValue]) throws -> ([WireEntry], WirePolicy) {
        let provider = self.provider
        let timeline = try Blocking.asyncThrowing {
            await provider.timeline(for: try await IntentRegistry.resolve(Provider.Intent.self, parameters: configuration), in: context)
        }
        return (timeline.entries.map { Self.render($0, content, context, placeholder: false) }, timeline.policy.wire)
    }
}
