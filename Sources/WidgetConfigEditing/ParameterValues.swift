import FoundationEssentials
import OpenWidgetKit

/// A widget's intent parameters checked against what its bundle describes (`ParameterDescriptor`):
/// an unknown name, a value outside an `AppEnum`'s cases or an `AppEntity` query's suggested ids,
/// or of the wrong type is refused, naming
/// what would be valid. Text from a command line (`K=V`) is read as the parameter's type; a
/// value from a form is checked as it is. Pure; any thread.
public enum ParameterValues {
    /// `K=V` split at the first `=`.
    public static func split(_ assignment: String) throws -> (name: String, text: String) {
        guard let eq = assignment.firstIndex(of: "="), eq != assignment.startIndex else {
            throw ConfigEditError("'\(assignment)' is not NAME=VALUE")
        }
        return (String(assignment[..<eq]), String(assignment[assignment.index(after: eq)...]))
    }

    /// The descriptor of parameter `name` of `widget`, or an error listing its parameters.
    public static func descriptor(_ name: String, of widget: WidgetDescriptor) throws -> ParameterDescriptor {
        if let d = widget.parameters.first(where: { $0.name == name }) { return d }
        let known = widget.parameters.isEmpty ? "it has no parameters"
            : "its parameters: " + widget.parameters.map { "\($0.name) (\(typeDescription($0)))" }.joined(separator: ", ")
        throw ConfigEditError("\(widget.kind) has no parameter \"\(name)\" (\(known))")
    }

    /// `text` read as the type of parameter `name` of `widget`.
    public static func value(_ name: String, text: String, of widget: WidgetDescriptor) throws -> JSONValue {
        let d = try descriptor(name, of: widget)
        let refused = ConfigEditError("\(widget.kind) parameter \(name) expects \(typeDescription(d)), got '\(text)'")
        switch d.type {
        case "bool":
            switch text {
            case "true": return .bool(true)
            case "false": return .bool(false)
            default: throw refused
            }
        case "int":
            guard let i = Int(text) else { throw refused }
            return .number(Double(i))
        case "double", "date":
            guard let n = Double(text), n.isFinite else { throw refused }
            return .number(n)
        case "enum", "entity", "string", "url":
            return try checked(.string(text), name: name, of: widget)
        default:
            // A type this host does not know yet: JSON when it parses, else the text.
            return (try? WireCodec.decodeJSONValue(Data(text.utf8))) ?? .string(text)
        }
    }

    /// `value` when it fits parameter `name` of `widget`; an error naming the valid values else.
    public static func checked(_ value: JSONValue, name: String, of widget: WidgetDescriptor) throws -> JSONValue {
        let d = try descriptor(name, of: widget)
        let fits: Bool
        switch (d.type, value) {
        case ("bool", .bool): fits = true
        case ("int", .number(let n)): fits = n.isFinite && n == n.rounded() && abs(n) < 9e15
        case ("double", .number(let n)), ("date", .number(let n)): fits = n.isFinite
        case ("string", .string): fits = true
        case ("url", .string(let s)): fits = URL(string: s)?.scheme != nil
        case ("enum", .string(let s)): fits = d.options.map { $0.contains { $0.value == s } } ?? true
        // An `AppEntity`: the id of one of the entities its query suggested when the bundle was described.
        case ("entity", .string(let s)): fits = (d.options ?? []).contains { $0.value == s }
        case ("bool", _), ("int", _), ("double", _), ("date", _), ("string", _), ("url", _), ("enum", _), ("entity", _): fits = false
        default: fits = true
        }
        guard fits else {
            let shown: String
            if case .string(let s) = value { shown = "'\(s)'" } else { shown = JSONText.value(value) }
            throw ConfigEditError("\(widget.kind) parameter \(name) expects \(typeDescription(d)), got \(shown)")
        }
        return value
    }

    /// What a parameter takes, in words: `one of: steps (Steps), calories (Calories)`, `true or
    /// false`, `a whole number`…
    private static func optionList(_ options: [EnumOption]) -> String {
        options.map { $0.title.isEmpty || $0.title == $0.value ? $0.value : "\($0.value) (\($0.title))" }.joined(separator: ", ")
    }

    public static func typeDescription(_ d: ParameterDescriptor) -> String {
        switch d.type {
        case "bool": return "true or false"
        case "int": return "a whole number"
        case "double": return "a number"
        case "date": return "a date as seconds since 1970"
        case "url": return "a URL with a scheme (https://…)"
        case "string": return "text"
        case "enum":
            guard let options = d.options, !options.isEmpty else { return "a case of its enum" }
            return "one of: " + optionList(options)
        case "entity":
            guard let options = d.options, !options.isEmpty else { return "an entity id (its query suggested none)" }
            return "the id of one of: " + optionList(options)
        default: return "a \(d.type) value"
        }
    }
}
