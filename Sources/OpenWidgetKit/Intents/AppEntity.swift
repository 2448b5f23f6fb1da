import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// An identifier an `AppEntity` can have: `String`, `Int`, `UUID`, as in AppIntents. It travels
/// as its string (`config.json`, `widgethost configure ID city=<id>`).
public protocol EntityIdentifierConvertible {
    var entityIdentifierString: String { get }
    static func entityIdentifier(for entityIdentifierString: String) -> Self?
}

extension String: EntityIdentifierConvertible {
    public var entityIdentifierString: String { self }
    public static func entityIdentifier(for entityIdentifierString: String) -> String? { entityIdentifierString }
}

extension Int: EntityIdentifierConvertible {
    public var entityIdentifierString: String { String(self) }
    public static func entityIdentifier(for entityIdentifierString: String) -> Int? { Int(entityIdentifierString) }
}

extension UUID: EntityIdentifierConvertible {
    public var entityIdentifierString: String { uuidString }
    public static func entityIdentifier(for entityIdentifierString: String) -> UUID? { UUID(uuidString: entityIdentifierString) }
}

/// A thing of the app's (a city, an account, a list) that an intent parameter can name, as in
/// AppIntents: `@Parameter(title: "City") var city: CityEntity?` in a `WidgetConfigurationIntent`.
///
/// The picker's values are the query's `suggestedEntities()` (else `allEntities()` of an
/// `EnumerableEntityQuery`), asked in the bundle's worker when the host describes the bundle (a
/// bundle that declares access beyond the base sandbox is asked again by its serving worker,
/// under its own sandbox): they are the parameter's `options` in the manifest (id, display title), which
/// `widgethost gallery --json`, `widgethost configure` and the Edit Widget form use. The
/// configuration stores the id; before the provider runs, the SDK asks `entities(for: [id])`
/// and hands the provider that entity (a parameter without a value gets `defaultResult()`).
/// Limits: `EntityLimits`.
public protocol AppEntity: IntentValue, Identifiable where ID: EntityIdentifierConvertible {
    associatedtype DefaultQuery: EntityQuery where DefaultQuery.Entity == Self
    static var typeDisplayRepresentation: TypeDisplayRepresentation { get }
    var displayRepresentation: DisplayRepresentation { get }
    /// The query that finds entities of this type (`static var defaultQuery = CityQuery()`).
    static var defaultQuery: DefaultQuery { get }
}

/// Finds the entities of one type, as in AppIntents. Called on a background task of the worker,
/// one call at a time; the host's deadline for the request that asks bounds it.
public protocol EntityQuery {
    associatedtype Entity: AppEntity
    init()
    /// The entities with these ids (unknown ids are left out).
    func entities(for identifiers: [Entity.ID]) async throws -> [Entity]
    /// The entities a picker offers. Default: none (an `EnumerableEntityQuery`: all).
    func suggestedEntities() async throws -> [Entity]
    /// The entity a new widget starts with. Default: the first suggested one.
    func defaultResult() async -> Entity?
}

extension EntityQuery {
    public func suggestedEntities() async throws -> [Entity] { [] }
    public func defaultResult() async -> Entity? { try? await suggestedEntities().first }
}

/// A query that can also search by text (`entities(matching:)`), as in AppIntents. The host's
/// pickers are menus of the suggested entities; the search is there for code that calls it.
public protocol EntityStringQuery: EntityQuery {
    func entities(matching string: String) async throws -> [Entity]
}

/// A query that can list every entity (`allEntities()`); its picker offers them all.
public protocol EnumerableEntityQuery: EntityQuery {
    func allEntities() async throws -> [Entity]
}

extension EnumerableEntityQuery {
    public func suggestedEntities() async throws -> [Entity] { try await allEntities() }
    public func entities(for identifiers: [Entity.ID]) async throws -> [Entity] {
        try await allEntities().filter { e in identifiers.contains { $0 == e.id } }
    }
}

/// How many entities a picker offers and how long their texts may be: a query that returns more
/// is cut (the first ones are kept), a longer id is left out (it could not be configured), a
/// longer title is shortened with "…".
public enum EntityLimits {
    public static let maxSuggestedEntities = 200
    public static let maxIdentifierLength = 256
    public static let maxTitleLength = 120
}

/// An entity parameter was given an id its query does not know.
public struct EntityNotFound: Error, CustomStringConvertible, Sendable {
    public var description: String
}

extension AppEntity {
    public static var intentValueType: String { "entity" }
    /// An entity is only found by asking its query (`_resolveIntentValue`).
    public init?(intentValue: JSONValue) { return nil }
    public var intentValue: JSONValue { .string(id.entityIdentifierString) }

    public static var intentValueOptions: [EnumOption]? {
        let suggested: [Self]
        do {
            suggested = try Blocking.asyncThrowing { try await Self.defaultQuery.suggestedEntities() }
        } catch {
            // The worker's stderr is the bundle's log (`widgethost status`, the journal).
            let message = "\(String(reflecting: Self.self)).defaultQuery.suggestedEntities() failed: \(error)\n"
            _ = message.withCString { write(2, $0, strlen($0)) }
            return []
        }
        return entityOptions(suggested)
    }

    /// The picker's options for these entities, within `EntityLimits`.
    static func entityOptions(_ entities: [Self]) -> [EnumOption] {
        var seen = Set<String>(), out: [EnumOption] = []
        for e in entities where out.count < EntityLimits.maxSuggestedEntities {
            let id = e.id.entityIdentifierString
            guard id.count <= EntityLimits.maxIdentifierLength, seen.insert(id).inserted else { continue }
            var title = e.displayRepresentation.title
            if title.count > EntityLimits.maxTitleLength { title = String(title.prefix(EntityLimits.maxTitleLength - 1)) + "…" }
            out.append(EnumOption(value: id, title: title))
        }
        return out
    }

    public static func _resolveIntentValue(_ value: JSONValue) async throws -> Self? {
        guard case .string(let text) = value else { return nil }
        guard let id = ID.entityIdentifier(for: text) else {
            throw EntityNotFound(description: "\"\(text)\" is not an id of \(typeDisplayRepresentation.name)")
        }
        let found = try await defaultQuery.entities(for: [id])
        guard let entity = found.first(where: { $0.id == id }) else {
            throw EntityNotFound(description: "no \(typeDisplayRepresentation.name) with id \"\(text)\" (its query found none)")
        }
        return entity
    }

    public static func _defaultIntentValue() async -> Self? { await defaultQuery.defaultResult() }
}
