import FoundationEssentials

/// A value that can be an intent parameter: it converts to and from `JSONValue`.
public protocol IntentValue {
    /// `bool`, `int`, `double`, `string`, `enum`, `date`, `url`, `entity`.
    static var intentValueType: String { get }
    init?(intentValue: JSONValue)
    var intentValue: JSONValue { get }
    /// Options of an enum parameter (raw value, title), or the suggested entities of an
    /// `AppEntity` parameter (id, display name); nil otherwise. Called on the worker's request
    /// thread when the bundle is described.
    static var intentValueOptions: [EnumOption]? { get }
    /// The value `intentValue` stands for, found where that needs asking (an `AppEntity`'s
    /// query); nil when it stands for none. Default: `init?(intentValue:)`. Not for authors.
    static func _resolveIntentValue(_ value: JSONValue) async throws -> Self?
    /// The value a parameter without a default takes (an `AppEntity` query's `defaultResult()`);
    /// default none. Not for authors.
    static func _defaultIntentValue() async -> Self?
}

extension IntentValue {
    public static var intentValueOptions: [EnumOption]? { nil }
    public static func _resolveIntentValue(_ value: JSONValue) async throws -> Self? { Self(intentValue: value) }
    public static func _defaultIntentValue() async -> Self? { nil }
}

extension Bool: IntentValue {
    public static var intentValueType: String { "bool" }
    public init?(intentValue: JSONValue) {
        switch intentValue {
        case .bool(let b): self = b
        case .string(let s): guard let b = Bool(s) else { return nil }; self = b
        default: return nil
        }
    }
    public var intentValue: JSONValue { .bool(self) }
}

extension Int: IntentValue {
    public static var intentValueType: String { "int" }
    public init?(intentValue: JSONValue) {
        switch intentValue {
        case .number: guard let i = intentValue.intValue else { return nil }; self = i
        case .string(let s): guard let i = Int(s) else { return nil }; self = i
        default: return nil
        }
    }
    public var intentValue: JSONValue { .number(Double(self)) }
}

extension Double: IntentValue {
    public static var intentValueType: String { "double" }
    public init?(intentValue: JSONValue) {
        switch intentValue {
        case .number(let n): self = n
        case .string(let s): guard let d = Double(s) else { return nil }; self = d
        default: return nil
        }
    }
    public var intentValue: JSONValue { .number(self) }
}

extension String: IntentValue {
    public static var intentValueType: String { "string" }
    public init?(intentValue: JSONValue) {
        guard case .string(let s) = intentValue else { return nil }
        self = s
    }
    public var intentValue: JSONValue { .string(self) }
}

extension Date: IntentValue {
    public static var intentValueType: String { "date" }
    public init?(intentValue: JSONValue) {
        switch intentValue {
        case .number(let n): self = Date(timeIntervalSince1970: n)
        case .string(let s): guard let n = Double(s) else { return nil }; self = Date(timeIntervalSince1970: n)
        default: return nil
        }
    }
    public var intentValue: JSONValue { .number(timeIntervalSince1970) }
}

extension URL: IntentValue {
    public static var intentValueType: String { "url" }
    public init?(intentValue: JSONValue) {
        guard case .string(let s) = intentValue, let u = URL(string: s) else { return nil }
        self = u
    }
    public var intentValue: JSONValue { .string(absoluteString) }
}

extension Optional: IntentValue where Wrapped: IntentValue {
    public static var intentValueType: String { Wrapped.intentValueType }
    public static var intentValueOptions: [EnumOption]? { Wrapped.intentValueOptions }
    public init?(intentValue: JSONValue) {
        if case .null = intentValue { self = .none; return }
        guard let w = Wrapped(intentValue: intentValue) else { return nil }
        self = .some(w)
    }
    public var intentValue: JSONValue { self?.intentValue ?? .null }
    public static func _resolveIntentValue(_ value: JSONValue) async throws -> Self? {
        if case .null = value { return .some(.none) }
        return try await Wrapped._resolveIntentValue(value).map { .some($0) }
    }
    public static func _defaultIntentValue() async -> Self? { await Wrapped._defaultIntentValue().map { .some($0) } }
}

/// `Optional` as the SDK sees it without knowing its wrapped type: an unset optional parameter reads as nil.
protocol OptionalIntentValue { static var none: Self { get } }
extension Optional: OptionalIntentValue {}

/// Type-erased access to a `@Parameter`, used by reflection over an intent.
protocol AnyIntentParameter {
    var title: String { get }
    var currentValue: JSONValue? { get }
    /// Sets the value; false when `value` does not convert to the parameter's type without
    /// asking (an `AppEntity` needs `resolve`).
    func assign(_ value: JSONValue) -> Bool
    /// Sets the value, asking an `AppEntity`'s query for the entity `value` names; false when
    /// it names none or does not convert. Errors are the query's.
    func resolve(_ value: JSONValue) async throws -> Bool
    /// A parameter without a value takes its type's default (an entity query's `defaultResult()`).
    func fillDefault() async
    /// Forgets the value (after describing a default that was asked for).
    func clear()
    var valueType: String { get }
    var options: [EnumOption]? { get }
}

/// `@Parameter(title:default:)`: a user- or caller-supplied value of an intent.
///
/// The value lives in a reference box, so an intent's parameters can be assigned through a copy
/// of the intent (which is how the SDK decodes an intent from the wire). Copies of one intent
/// value therefore share their parameters; create a new intent with `init()` instead of copying.
/// Not thread-safe: an intent is used by one thread at a time.
@propertyWrapper
public struct Parameter<Value: IntentValue>: AnyIntentParameter {
    final class Storage { var value: Value?; init(_ v: Value?) { value = v } }
    let storage: Storage
    public let title: String

    public init(title: LocalizedStringResource) { storage = Storage(nil); self.title = title.key }
    /// A parameter without a title (an `INIntent` property, `@IntentParameter var city: String?`):
    /// the manifest shows its property name.
    public init() { storage = Storage(nil); title = "" }
    /// `@IntentParameter var count: Int = 3`.
    public init(wrappedValue: Value) { storage = Storage(wrappedValue); title = "" }
    public init(title: LocalizedStringResource, default defaultValue: Value) {
        storage = Storage(defaultValue); self.title = title.key
    }
    public init(wrappedValue: Value, title: LocalizedStringResource) {
        storage = Storage(wrappedValue); self.title = title.key
    }
    /// `@Parameter(title:description:)`: the description is for the Shortcuts editor iOS has and
    /// this host does not; accepted, not shown.
    public init(title: LocalizedStringResource, description: LocalizedStringResource) { self.init(title: title) }
    public init(title: LocalizedStringResource, description: LocalizedStringResource, default defaultValue: Value) {
        self.init(title: title, default: defaultValue)
    }
    public init(wrappedValue: Value, title: LocalizedStringResource, description: LocalizedStringResource) {
        self.init(wrappedValue: wrappedValue, title: title)
    }

    /// The value. Reading a parameter that has neither a default nor an assigned value is a
    /// programming error in the intent (as in AppIntents) and traps with the parameter's title.
    public var wrappedValue: Value {
        get {
            if storage.value == nil, let none = (Value.self as? any OptionalIntentValue.Type)?.none as? Value { return none }
            guard let v = storage.value else { fatalError("@Parameter \"\(title)\" was read before it was set") }
            return v
        }
        nonmutating set { storage.value = newValue }
    }

    var currentValue: JSONValue? { storage.value?.intentValue }
    func assign(_ value: JSONValue) -> Bool {
        guard let v = Value(intentValue: value) else { return false }
        storage.value = v
        return true
    }
    func resolve(_ value: JSONValue) async throws -> Bool {
        guard let v = try await Value._resolveIntentValue(value) else { return false }
        storage.value = v
        return true
    }
    func fillDefault() async {
        if storage.value == nil, let v = await Value._defaultIntentValue() { storage.value = v }
    }
    func clear() { storage.value = nil }
    var valueType: String { Value.intentValueType }
    var options: [EnumOption]? { Value.intentValueOptions }
}

/// How an `AppEnum` case or an `AppEntity` is shown (`"Steps"` as a string literal). The
/// subtitle and image are for pickers iOS has; the host's pickers show the title.
public struct DisplayRepresentation: ExpressibleByStringLiteral, ExpressibleByStringInterpolation, Hashable, Sendable {
    public var title: String
    public var subtitle: String?
    public init(title: LocalizedStringResource, subtitle: LocalizedStringResource? = nil) {
        self.title = title.key; self.subtitle = subtitle?.key
    }
    public init(title: LocalizedStringResource, subtitle: LocalizedStringResource? = nil, image: Image?) {
        self.init(title: title, subtitle: subtitle)
    }
    public init(stringLiteral value: String) { title = value }

    /// `DisplayRepresentation.Image(systemName:)`: accepted, not shown.
    public struct Image: Hashable, Sendable {
        public let systemName: String?
        public init(systemName: String) { self.systemName = systemName }
        public init(named name: String) { systemName = nil }
    }
}

/// How an `AppEnum` type is named.
public struct TypeDisplayRepresentation: ExpressibleByStringLiteral, Hashable, Sendable {
    public var name: String
    public init(name: LocalizedStringResource) { self.name = name.key }
    public init(stringLiteral value: String) { name = value }
}

/// An enumeration usable as an intent parameter (`enum StatType: String, AppEnum`, or any raw
/// type that converts to and from a string, as on iOS: `enum Goal: Int, AppEnum`). On the wire
/// and in `config.json` a case is its raw value as a string (`"10000"`).
public protocol AppEnum: IntentValue, CaseIterable, Hashable, RawRepresentable where RawValue: LosslessStringConvertible {
    static var typeDisplayRepresentation: TypeDisplayRepresentation { get }
    static var caseDisplayRepresentations: [Self: DisplayRepresentation] { get }
}

extension AppEnum {
    public static var intentValueType: String { "enum" }
    public init?(intentValue: JSONValue) {
        guard case .string(let s) = intentValue, let raw = RawValue(s), let v = Self(rawValue: raw) else { return nil }
        self = v
    }
    public var intentValue: JSONValue { .string(String(rawValue)) }
    public static var intentValueOptions: [EnumOption]? {
        allCases.map { EnumOption(value: String($0.rawValue), title: caseDisplayRepresentations[$0]?.title ?? String($0.rawValue)) }
    }
}
