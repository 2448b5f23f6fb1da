import FoundationEssentials
import OpenWidgetKit

/// A calendar to pick in the Edit Widget form (the `calendars` parameter), as an iOS author
/// would write it: its id is the calendar's folder or file path, its name and colour are the
/// ones the widget draws (`CalendarSources`). The id `""` is "All Calendars", the default.
///
/// An id that is neither `""` nor the path of a calendar found now is read as the parameter's
/// old free text: calendar names separated by commas, matched without case against a
/// calendar's name or its plain name (`CalendarSource.plainName`) — a config written before the
/// picker shows what it showed. A calendar's path that is gone matches nothing.
struct CalendarEntity: AppEntity, Equatable {
    let id: String
    var name: String
    var color: String

    static var typeDisplayRepresentation: TypeDisplayRepresentation = "Calendar"
    static var defaultQuery = CalendarQuery()
    var displayRepresentation: DisplayRepresentation { DisplayRepresentation(title: "\(name)", subtitle: color.isEmpty ? nil : "\(color)") }

    static let all = CalendarEntity(id: "", name: "All Calendars", color: "")

    init(id: String, name: String, color: String) {
        self.id = id; self.name = name; self.color = color
    }

    init(_ source: CalendarSource) {
        self.init(id: source.id, name: source.name, color: source.color)
    }

    /// Whether the widget shows `source`'s events when this entity is picked. Pure.
    func includes(_ source: CalendarSource) -> Bool {
        if id.isEmpty || id == source.id { return true }
        guard !id.hasPrefix("/") else { return false }
        let names = Set(id.split(separator: ",").map { CalendarSources.trimmed(String($0)).lowercased() }.filter { !$0.isEmpty })
        return names.isEmpty || names.contains(source.name.lowercased()) || names.contains(source.plainName.lowercased())
    }

    /// The entity an id names among `sources` (`CalendarQuery.entities(for:)`). Pure.
    static func named(_ id: String, among sources: [CalendarSource]) -> CalendarEntity {
        if id.isEmpty { return .all }
        if let source = sources.first(where: { $0.id == id }) { return CalendarEntity(source) }
        return CalendarEntity(id: id, name: id, color: "")
    }
}

/// The calendars the worker can see: under the folders the bundle declares and the ones the
/// person granted (`CalendarPaths.roots()`), read when the host describes the bundle (the
/// picker's options) and before each timeline (the picked one). Reads the disk; called on a
/// background task of the worker, one call at a time.
struct CalendarQuery: EntityQuery {
    /// "All Calendars", then every calendar found, by name.
    func suggestedEntities() async throws -> [CalendarEntity] { Self.suggested(roots: CalendarPaths.roots()) }

    /// Any id names an entity (`CalendarEntity.named`): an old config's names are read as before.
    func entities(for identifiers: [String]) async throws -> [CalendarEntity] {
        let sources = CalendarSources.discover(roots: CalendarPaths.roots())
        return identifiers.map { CalendarEntity.named($0, among: sources) }
    }

    /// Every calendar, as the free-text parameter's empty default was.
    func defaultResult() async -> CalendarEntity? { .all }

    static func suggested(roots: [String]) -> [CalendarEntity] {
        [.all] + CalendarSources.discover(roots: roots).map(CalendarEntity.init)
    }
}
