import OpenWidgetKit
import WidgetHostCore

/// The "Edit Widget" form of one configured widget: a field per intent parameter its bundle
/// describes, each with the control that fits its type and the value the widget runs with now
/// (the config's, else the parameter's default). What a form hands back becomes the assignments
/// of a `configure` edit — only the values that changed, each checked by `ParameterValues` as
/// the command line's are. Pure; value type; any thread.
public struct ParameterForm: Equatable, Sendable {
    /// How a parameter is edited.
    public enum Control: Equatable, Sendable {
        /// An `AppEnum` or an `AppEntity`: a menu of its cases (the entities its query suggests),
        /// shown by their display names.
        case menu([EnumOption])
        /// A `Bool`: a switch.
        case toggle
        /// An `Int` (whole numbers) or a `Double`/`Date` number: a spin button within `bounds`.
        /// Bundles describe no ranges of their own (`ParameterDescriptor`), so the bounds are
        /// the type's: what a 32-bit spin button holds for `Int`, ±1e9 for the others.
        case number(bounds: ClosedRange<Double>, wholeNumbers: Bool)
        /// A `String`, a `URL`, or a type this editor does not know: an entry (the text is read
        /// as the parameter's type, as `widgethost configure NAME=TEXT` reads it).
        case text
    }

    public struct Field: Equatable, Sendable {
        public var name: String
        public var title: String
        public var control: Control
        /// What the widget runs with now: the config's value, else the default, else the
        /// control's empty value (the first case, false, 0, "").
        public var value: JSONValue
        public var defaultValue: JSONValue?
        /// The value as the form shows it: an enum case by its display name, a number without
        /// a needless ".0".
        public func shown(_ v: JSONValue) -> String {
            switch (control, v) {
            case (.menu(let options), .string(let s)): return options.first { $0.value == s }.map(ParameterForm.title) ?? s
            case (_, .bool(let b)): return b ? "On" : "Off"
            case (_, .string(let s)): return s
            default: return JSONText.value(v)
            }
        }
    }

    public var id: String
    public var kind: String
    public var displayName: String
    public var family: WidgetFamily
    public var fields: [Field]

    public static let intBounds: ClosedRange<Double> = -2_147_483_648...2_147_483_647
    public static let numberBounds: ClosedRange<Double> = -1e9...1e9

    /// The form of widget `id` in the config `editor` holds (listed, or one of the implicit
    /// instances of a config without a `widgets` list); an error naming the ids when there is none.
    public init(id: String, editor: ConfigEditor) throws {
        let bundles = try editor.catalog.installedBundles()
        let plan = WidgetInstancePlanner.plan(config: editor.config, bundles: bundles.map(\.manifest), bundleNames: bundles.map(\.fileName))
        guard let spec = plan.instances.first(where: { $0.id == id }) else {
            let ids = plan.instances.map(\.id)
            throw ConfigEditError("no widget \"\(id)\" in the config (ids: \(ids.isEmpty ? "none" : ids.joined(separator: ", ")))")
        }
        let (_, widget) = try editor.catalog.resolve(kind: spec.kind, bundle: spec.bundleName)
        self.init(id: id, widget: widget, family: spec.family, configured: spec.parameters)
    }

    public init(id: String, widget: WidgetDescriptor, family: WidgetFamily, configured: [String: JSONValue]) {
        self.id = id
        kind = widget.kind
        displayName = widget.displayName.isEmpty ? widget.kind : widget.displayName
        self.family = family
        fields = widget.parameters.map { d in
            var control = Self.control(for: d)
            // A configured value the menu does not offer (an old config's free text, an entity
            // gone since) is shown as one more item: the form shows what the widget runs with
            // and keeps it unless another is chosen.
            if case .menu(let options) = control, case .string(let s)? = configured[d.name], !options.contains(where: { $0.value == s }) {
                control = .menu(options + [EnumOption(value: s, title: s)])
            }
            return Field(name: d.name, title: d.title.isEmpty ? d.name : d.title, control: control,
                         value: configured[d.name] ?? d.defaultValue ?? Self.emptyValue(control), defaultValue: d.defaultValue)
        }
    }

    static func control(for d: ParameterDescriptor) -> Control {
        switch d.type {
        case "enum", "entity": return d.options.map { $0.isEmpty ? .text : .menu($0) } ?? .text
        case "bool": return .toggle
        case "int": return .number(bounds: intBounds, wholeNumbers: true)
        case "double", "date": return .number(bounds: numberBounds, wholeNumbers: false)
        default: return .text
        }
    }

    static func emptyValue(_ control: Control) -> JSONValue {
        switch control {
        case .menu(let options): return .string(options.first?.value ?? "")
        case .toggle: return .bool(false)
        case .number: return .number(0)
        case .text: return .string("")
        }
    }

    /// An enum case's display name (its raw value when it has none).
    public static func title(_ o: EnumOption) -> String { o.title.isEmpty ? o.value : o.title }

    /// The assignments of a `configure` edit for what the form shows now (`inputs`: field name →
    /// its control's value): only the fields whose value differs from `value`. Text is passed
    /// as text, to be read as the parameter's type (and refused naming what is valid).
    public func changes(_ inputs: [String: ParameterInput]) -> [ParameterAssignment] {
        fields.compactMap { f in
            guard let input = inputs[f.name] else { return nil }
            switch input {
            case .value(let v) where v == f.value: return nil
            case .text(let t) where f.value == .string(t) || (f.value.stringValue == nil && t == JSONText.value(f.value)): return nil
            default: return ParameterAssignment(name: f.name, value: input)
            }
        }
    }
}
