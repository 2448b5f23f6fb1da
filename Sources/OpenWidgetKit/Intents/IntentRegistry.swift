import FoundationEssentials
import Synchronization

/// Maps intent type names to types, so an `IntentAction` from the wire can be turned back into
/// an intent and performed. Types register themselves when a view holding them is evaluated
/// (`Button(intent:)`, `Toggle(isOn:intent:)`) or when a configuration intent is described.
/// Thread-safe (a mutex guards the table).
public enum IntentRegistry {
    /// Metatypes are immutable, so sharing them across threads is safe.
    private struct TypeBox: @unchecked Sendable { let type: any AppIntent.Type }
    private static let types = Mutex<[String: TypeBox]>([:])

    /// The wire name of an intent type (module-qualified).
    public static func name<I: AppIntent>(of type: I.Type) -> String { String(reflecting: type) }

    public static func register<I: AppIntent>(_ type: I.Type) {
        let key = name(of: type)
        let box = TypeBox(type: type)
        types.withLock { $0[key] = box }
    }

    public static func type(named name: String) -> (any AppIntent.Type)? {
        types.withLock { $0[name]?.type }
    }

    /// The `@Parameter`s of an intent value, by property name.
    public static func parameters<I: AppIntent>(of intent: I) -> [String: JSONValue] {
        var out: [String: JSONValue] = [:]
        for (name, p) in parameterList(of: intent) {
            if let v = p.currentValue { out[name] = v }
        }
        return out
    }

    /// Describes the parameters of an intent type (for `describe`). An `AppEntity` parameter's
    /// options are its query's suggested entities, and its default the query's
    /// `defaultResult()`, asked now: call it on the worker's request thread.
    public static func parameterDescriptors<I: AppIntent>(of type: I.Type) -> [ParameterDescriptor] {
        parameterDescriptors(ofValue: type.init())
    }

    /// Describes the parameters of an intent value of any kind (an `AppIntent`, an `INIntent`).
    static func parameterDescriptors(ofValue intent: Any) -> [ParameterDescriptor] {
        parameterList(of: intent).map { name, p in
            var defaultValue = p.currentValue
            if defaultValue == nil, p.valueType == "entity" {
                let filled = Blocking.async { await p.fillDefault(); return p.currentValue }
                defaultValue = filled
                p.clear()
            }
            return ParameterDescriptor(name: name, title: p.title.isEmpty ? name : p.title, type: p.valueType,
                                       defaultValue: defaultValue, options: p.options)
        }
    }

    /// Encodes an intent for a control in a view tree. `id` is filled in by the evaluator.
    public static func action<I: AppIntent>(for intent: I) -> IntentAction {
        register(I.self)
        return IntentAction(id: "", intent: name(of: I.self), parameters: parameters(of: intent), title: I.title.key)
    }

    /// Creates an intent of `type` with the given parameter values. Unknown names and values of
    /// the wrong type are reported, never ignored silently.
    /// Values that need asking (an `AppEntity`) are refused here: use `resolve`.
    public static func make<I: AppIntent>(_ type: I.Type, parameters: [String: JSONValue]) throws -> I {
        let intent = type.init()
        let params = try checkedParameters(of: intent, parameters, typeName: name(of: type))
        for (key, value, p) in params {
            guard p.assign(value) else {
                throw IntentError("parameter \"\(key)\" of \(name(of: type)) expects a \(p.valueType), got \(value)")
            }
        }
        return intent
    }

    /// Creates an intent of `type` with the given parameter values, as `make` does, asking an
    /// `AppEntity` parameter's query for the entity its id names (`entities(for: [id])`; an id
    /// it does not find is an error naming it) and filling an entity parameter without a value
    /// with the query's `defaultResult()`.
    public static func resolve<I: AppIntent>(_ type: I.Type, parameters: [String: JSONValue]) async throws -> I {
        let intent = type.init()
        try await assign(parameters, to: intent, typeName: name(of: type))
        return intent
    }

    /// Sets the parameters of `intent` (an `AppIntent` or an `INIntent`), resolving entities.
    static func assign(_ parameters: [String: JSONValue], to intent: Any, typeName: String) async throws {
        let params = try checkedParameters(of: intent, parameters, typeName: typeName)
        for (key, value, p) in params {
            let assigned: Bool
            do { assigned = try await p.resolve(value) } catch {
                throw IntentError("parameter \"\(key)\" of \(typeName): \(error)")
            }
            guard assigned else {
                throw IntentError("parameter \"\(key)\" of \(typeName) expects a \(p.valueType), got \(value)")
            }
        }
        for (_, p) in parameterList(of: intent) where p.valueType == "entity" { await p.fillDefault() }
    }

    private static func checkedParameters(of intent: Any, _ parameters: [String: JSONValue],
                                          typeName: String) throws -> [(String, JSONValue, any AnyIntentParameter)] {
        let params = Dictionary(parameterList(of: intent), uniquingKeysWith: { a, _ in a })
        return try parameters.sorted(by: { $0.key < $1.key }).map { key, value in
            guard let p = params[key] else {
                throw IntentError("\(typeName) has no parameter \"\(key)\" (it has: \(params.keys.sorted().joined(separator: ", ")))")
            }
            return (key, value, p)
        }
    }

    /// Decodes and performs an action in the calling task.
    public static func perform(_ action: IntentAction) async throws {
        guard let type = type(named: action.intent) else {
            throw IntentError("unknown intent \(action.intent)")
        }
        try await performOpened(type, action.parameters)
    }

    private static func performOpened<I: AppIntent>(_ type: I.Type, _ parameters: [String: JSONValue]) async throws {
        let intent = try await resolve(type, parameters: parameters)
        _ = try await intent.perform()
    }

    static func parameterList(of intent: Any) -> [(String, any AnyIntentParameter)] {
        Mirror(reflecting: intent).children.compactMap { child in
            guard let label = child.label, let p = child.value as? any AnyIntentParameter else { return nil }
            return (label.hasPrefix("_") ? String(label.dropFirst()) : label, p)
        }
    }
}

/// An error raised while decoding or running an intent.
public struct IntentError: Error, CustomStringConvertible, Sendable {
    public var description: String
    public init(_ description: String) { self.description = description }
}
