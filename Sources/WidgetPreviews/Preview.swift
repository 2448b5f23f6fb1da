import OpenWidgetKit

// `#Preview` with Apple's signatures. A bundle with previews adds the `WidgetPreviews` product
// and `import WidgetPreviews` where it declares them; `widgethost preview X.so` then lists them
// by name (docs/plugin-authoring.md). Each use expands to one exported C function
// (`owk_preview_<unique>`) returning the preview; nothing runs until a preview is asked for.

/// A widget in `family` over the entries of `timeline`.
@freestanding(declaration)
public macro Preview<W: Widget, E: TimelineEntry>(_ name: String? = nil, as family: WidgetFamily,
                                                  widget: @escaping () -> W,
                                                  @PreviewTimelineBuilder<E> timeline: @escaping () -> [E])
    = #externalMacro(module: "WidgetPreviewMacros", type: "WidgetPreviewMacro")

/// A widget in `family` over the timeline `timelineProvider` gives.
@freestanding(declaration)
public macro Preview<W: Widget, P: TimelineProvider>(_ name: String? = nil, as family: WidgetFamily,
                                                     widget: @escaping () -> W,
                                                     timelineProvider: @escaping () -> P)
    = #externalMacro(module: "WidgetPreviewMacros", type: "WidgetPreviewMacro")

/// A plain view.
@freestanding(declaration)
public macro Preview<V: View>(_ name: String? = nil, @ViewBuilder body: @escaping () -> V)
    = #externalMacro(module: "WidgetPreviewMacros", type: "WidgetPreviewMacro")

/// The entries of a `timeline:` closure, one expression each (`if` and `for` too).
@resultBuilder
public enum PreviewTimelineBuilder<E: TimelineEntry> {
    public static func buildExpression(_ entry: E) -> [E] { [entry] }
    public static func buildExpression(_ entries: [E]) -> [E] { entries }
    public static func buildBlock(_ parts: [E]...) -> [E] { parts.flatMap { $0 } }
    public static func buildOptional(_ part: [E]?) -> [E] { part ?? [] }
    public static func buildEither(first part: [E]) -> [E] { part }
    public static func buildEither(second part: [E]) -> [E] { part }
    public static func buildArray(_ parts: [[E]]) -> [E] { parts.flatMap { $0 } }
}

/// What the macro's expansion calls: the same arguments, typed as Apple's `#Preview`. Not for authors.
public enum _WidgetPreviewRegistry {
    public static func make<W: Widget, E: TimelineEntry>(_ name: String? = nil, as family: WidgetFamily,
                                                         widget: @escaping () -> W,
                                                         @PreviewTimelineBuilder<E> timeline: @escaping () -> [E]) -> UnsafeMutableRawPointer {
        WidgetPreview(name: name, widget: widget(), family: family, entries: { timeline() }).retainedPointer()
    }

    public static func make<W: Widget, P: TimelineProvider>(_ name: String? = nil, as family: WidgetFamily,
                                                            widget: @escaping () -> W,
                                                            timelineProvider: @escaping () -> P) -> UnsafeMutableRawPointer {
        WidgetPreview(name: name, widget: widget(), family: family, entries: {
            let provider = timelineProvider()
            let context = TimelineProviderContext(family: family, isPreview: true)
            return _PreviewTimeline.entries(of: provider, in: context)
        }).retainedPointer()
    }

    public static func make<V: View>(_ name: String? = nil, @ViewBuilder body: @escaping () -> V) -> UnsafeMutableRawPointer {
        WidgetPreview(name: name, view: body).retainedPointer()
    }
}
