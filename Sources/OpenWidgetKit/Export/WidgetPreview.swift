import CWidgetMainEntry
import FoundationEssentials

/// One `#Preview` of a plugin, as the macro of `WidgetPreviews` hands it over: a name and how
/// to make its entries. Found in the plugin's own dynamic symbols (`owk_preview_*`, each an
/// exported C function the macro expands to), so no registration code runs at load.
///
/// Threading: immutable after init; built and used on the worker's request thread (its
/// closures run there), hence `@unchecked Sendable`.
public final class WidgetPreview: @unchecked Sendable {
    public let name: String?
    /// The widget's kind and family for a widget preview; nil for a view preview.
    let widget: (any Widget)?
    let family: WidgetFamily?
    let make: (WidgetFamily, DisplaySize?, ColorScheme, WidgetRenderingMode?) throws -> [WireEntry]

    /// A preview of `widget` in `family` whose entries `make` renders.
    public init(name: String?, widget: any Widget, family: WidgetFamily,
                entries: @escaping () throws -> [any TimelineEntry]) {
        self.name = name; self.widget = widget; self.family = family
        make = { family, displaySize, colorScheme, renderingMode in
            guard let record = widget._records.first else { throw IntentError("the preview's widget declares no configuration") }
            var context = TimelineProviderContext(family: family, displaySize: displaySize, isPreview: true)
            context.contentMarginsDisabled = record.contentMarginsDisabled
            context.colorScheme = colorScheme
            context.renderingMode = renderingMode
            return record.runner.render(entries: try entries(), context)
        }
    }

    /// A preview of a plain view, rendered in the family asked for (default `systemMedium`).
    public init<V: View>(name: String?, view: @escaping () -> V) {
        self.name = name; widget = nil; family = nil
        make = { family, displaySize, colorScheme, renderingMode in
            var env = EnvironmentValues()
            env.colorScheme = colorScheme
            env.widgetRenderingMode = renderingMode ?? (family.isAccessory ? .vibrant : .fullColor)
            env.widgetFamily = family
            env.displaySize = displaySize ?? family.nominalSize
            env.isPreview = true
            let node = EnvironmentValues.$current.withValue(env) { ViewEvaluator.evaluate(view(), environment: env) }
            return [WireEntry(date: Date(), view: node)]
        }
    }

    func descriptor(id: String) -> PreviewDescriptor {
        let kind = widget?._records.first?.kind
        return PreviewDescriptor(id: id, name: name ?? kind ?? "Preview", kind: kind, family: family)
    }

    func entries(family requested: WidgetFamily?, displaySize: DisplaySize?, colorScheme: ColorScheme,
                 renderingMode: WidgetRenderingMode? = nil) throws -> [WireEntry] {
        try make(requested ?? family ?? .systemMedium, displaySize, colorScheme, renderingMode)
    }

    /// The previews of this plugin, in the order of their symbols; read once.
    static let all: [WidgetPreview] = {
        var found: [WidgetPreview] = []
        withUnsafeMutablePointer(to: &found) { list in
            owk_each_preview_function(UnsafeMutableRawPointer(list)) { function, context in
                guard let function, let context else { return }
                let make = unsafeBitCast(function, to: (@convention(c) () -> UnsafeMutableRawPointer).self)
                let preview = Unmanaged<WidgetPreview>.fromOpaque(make()).takeRetainedValue()
                context.assumingMemoryBound(to: [WidgetPreview].self).pointee.append(preview)
            }
        }
        return found
    }()

    /// Hands a preview to the plugin's exported function (the macro's expansion returns this).
    public func retainedPointer() -> UnsafeMutableRawPointer { Unmanaged.passRetained(self).toOpaque() }
}

extension Widget {
    var _records: [WidgetRecord] { body._widgetRecords }
}

/// The entries a provider's timeline gives, waited for on the calling thread (for
/// `#Preview(as:widget:timelineProvider:)`). Not for authors.
public enum _PreviewTimeline {
    public static func entries<P: TimelineProvider>(of provider: P, in context: TimelineProviderContext) -> [any TimelineEntry] {
        Blocking.completion { provider.getTimeline(in: context, completion: $0) }.entries
    }
}
