import OpenWidgetKit
import WidgetHostCore

/// A parameter value as given: text from a command line (`steps`, `42`, `true`), read as the
/// parameter's type, or a value a form already typed.
public enum ParameterInput: Equatable, Sendable {
    case text(String)
    case value(JSONValue)
}

/// A widget to place: `widgethost add`, the gallery's "Add Widget".
public struct WidgetPlacement: Equatable, Sendable {
    public var kind: String
    public var family: String
    /// nil: `<kind>-<family>`, with `-2`, `-3`… when that is taken.
    public var id: String?
    /// The bundle (id or `.so` file name) when several declare `kind`.
    public var bundle: String?
    public var parameters: [ParameterAssignment]
    /// nil: `defaults.outputs`.
    public var outputs: [String]?

    public init(kind: String, family: String, id: String? = nil, bundle: String? = nil,
                parameters: [ParameterAssignment] = [], outputs: [String]? = nil) {
        self.kind = kind; self.family = family; self.id = id; self.bundle = bundle
        self.parameters = parameters; self.outputs = outputs
    }
}

/// Where `move` puts a widget in the desktop grid's order (`desktop.widgets`).
public enum GridDestination: Equatable, Sendable {
    /// Just before this widget.
    case before(String)
    /// At this position, 0 = first.
    case position(Int)
}

/// One change to `config.json`, as the command line and a graphical editor ask for it
/// (DESIGN §12: both write the same file through this one library of edits).
public enum ConfigEdit: Equatable, Sendable {
    /// Adds a widget instance; the result is its id.
    case add(WidgetPlacement)
    /// Removes the widget `id` (and its place in `desktop.widgets`).
    case remove(id: String)
    /// Sets intent parameters of the widget `id`, each checked against its bundle's description.
    case configure(id: String, parameters: [ParameterAssignment])
    /// Moves the widget `id` in the desktop grid's order.
    case move(id: String, to: GridDestination)
}

/// One intent parameter to set (`NAME=VALUE`).
public struct ParameterAssignment: Equatable, Sendable {
    public var name: String
    public var value: ParameterInput
    public init(name: String, value: ParameterInput) { self.name = name; self.value = value }
}
