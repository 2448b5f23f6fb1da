import FoundationEssentials
import OpenWidgetKit
import WidgetHostCore

/// What a gallery tile carries when it is dragged onto the desktop: the widget to add (kind,
/// family, bundle when several declare the kind, outputs, intent parameters) as a small JSON
/// object under the private type `mimeType`:
///
///     {"kind":"stats","family":"systemSmall","bundle":"StatsWidgets.so","outputs":["png"],"parameters":{"range":"week"}}
///
/// The receiving side (the lean desktop surface) gets the bytes from another process, so
/// `init(bytes:)` trusts nothing: more than `maxBytes`, not JSON, not an object, a missing or
/// empty `kind`/`family`, a field it does not know or a value of the wrong type is a
/// `ConfigEditError` naming what is wrong. Whether the kind exists is the edit's to say
/// (`ConfigEditor.apply(.add)`), with the same error a command-line add gets. Value type; pure.
public struct WidgetDragPayload: Equatable, Sendable {
    /// The drag-and-drop target type (X11 XDND and Wayland `wl_data_offer` mime type).
    public static let mimeType = "application/x-widgethost-widget"
    /// Largest payload accepted: a widget's description with its parameters is a few hundred bytes.
    public static let maxBytes = 16 * 1024

    public var placement: WidgetPlacement

    public init(placement: WidgetPlacement) { self.placement = placement }

    /// The payload as it is offered: compact JSON, keys sorted.
    public func encoded() -> [UInt8] {
        var object: [String: JSONValue] = ["kind": .string(placement.kind), "family": .string(placement.family)]
        if let bundle = placement.bundle { object["bundle"] = .string(bundle) }
        if let outputs = placement.outputs { object["outputs"] = .array(outputs.map { .string($0) }) }
        var parameters: [String: JSONValue] = [:]
        for p in placement.parameters {
            switch p.value {
            case .value(let v): parameters[p.name] = v
            case .text(let t): parameters[p.name] = .string(t)
            }
        }
        if !parameters.isEmpty { object["parameters"] = .object(parameters) }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(JSONValue.object(object))).map { [UInt8]($0) } ?? []
    }

    /// Reads a dropped payload; see the type's comment for what is refused.
    public init(bytes: [UInt8]) throws(ConfigEditError) {
        guard bytes.count <= Self.maxBytes else {
            throw ConfigEditError("the dropped widget is \(bytes.count) bytes, more than the \(Self.maxBytes) a widget's description takes")
        }
        let value: JSONValue
        do { value = try JSONDecoder().decode(JSONValue.self, from: Data(bytes)) } catch {
            throw ConfigEditError("the dropped widget is not JSON")
        }
        guard case .object(let object) = value else { throw ConfigEditError("the dropped widget is not a JSON object") }
        let known: Set = ["kind", "family", "bundle", "outputs", "parameters"]
        if let unknown = object.keys.sorted().first(where: { !known.contains($0) }) {
            throw ConfigEditError("the dropped widget has an unknown field “\(unknown)” (known: bundle, family, kind, outputs, parameters)")
        }
        func text(_ name: String, required: Bool) throws(ConfigEditError) -> String? {
            switch object[name] {
            case .string(let s) where !s.isEmpty && s.utf8.count <= 256: return s
            case nil where !required: return nil
            case nil: throw ConfigEditError("the dropped widget has no “\(name)”")
            default: throw ConfigEditError("the dropped widget's “\(name)” is not a name (a non-empty string of at most 256 bytes)")
            }
        }
        let kind = try text("kind", required: true)!
        let family = try text("family", required: true)!
        let bundle = try text("bundle", required: false)
        var outputs: [String]?
        switch object["outputs"] {
        case nil: break
        case .array(let items):
            outputs = []
            for item in items {
                guard case .string(let s) = item else { throw ConfigEditError("the dropped widget's “outputs” is not a list of names") }
                outputs!.append(s)
            }
        default: throw ConfigEditError("the dropped widget's “outputs” is not a list of names")
        }
        var parameters: [ParameterAssignment] = []
        switch object["parameters"] {
        case nil: break
        case .object(let values):
            parameters = values.keys.sorted().map { ParameterAssignment(name: $0, value: .value(values[$0]!)) }
        default: throw ConfigEditError("the dropped widget's “parameters” is not an object")
        }
        placement = WidgetPlacement(kind: kind, family: family, bundle: bundle, parameters: parameters, outputs: outputs)
    }

    /// Adds the widget to `editor` (`ConfigEditor.apply(.add)`) and moves it to `destination`
    /// in the desktop grid's order when one is given; returns its id. Refused as a whole: the
    /// editor is left as it was when either step is.
    @discardableResult
    public func add(to editor: inout ConfigEditor, at destination: GridDestination?) throws -> String {
        let before = editor
        do {
            let id = try editor.apply(.add(placement))
            if let destination { try editor.apply(.move(id: id, to: destination)) }
            return id
        } catch {
            editor = before
            throw error
        }
    }
}
