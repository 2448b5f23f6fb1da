import FoundationEssentials
import OpenWidgetKit

/// Where the widget's players come from: the session bus. Immutable; any thread.
let mediaPlayers: any MediaPlayerSource = SessionBusPlayers()

/// A player the widget can follow: one MPRIS player by its bus name, or "Whichever Is Playing"
/// (`id` `playing`), the default.
struct PlayerEntity: AppEntity {
    static let whicheverIsPlaying = PlayerEntity(id: "playing", name: "Whichever Is Playing")

    let id: String
    let name: String

    static var typeDisplayRepresentation: TypeDisplayRepresentation = "Player"
    static var defaultQuery = PlayerQuery()

    var displayRepresentation: DisplayRepresentation { DisplayRepresentation(title: "\(name)") }

    /// The bus name to follow; nil for "Whichever Is Playing".
    var busName: String? { id == Self.whicheverIsPlaying.id ? nil : id }
}

/// The players on the bus by their `Identity`, after "Whichever Is Playing". A player named in
/// a configuration is found by its bus name even while it is not running (it is shown as "Not
/// Playing" then), so a configuration outlives the player's restarts.
struct PlayerQuery: EntityQuery {
    func entities(for identifiers: [PlayerEntity.ID]) async throws -> [PlayerEntity] {
        identifiers.compactMap { id in
            if id == PlayerEntity.whicheverIsPlaying.id { return .whicheverIsPlaying }
            guard id.hasPrefix(MediaPlayer.prefix), id.count > MediaPlayer.prefix.count else { return nil }
            return PlayerEntity(id: id, name: mediaPlayers.identity(of: id) ?? String(id.dropFirst(MediaPlayer.prefix.count)))
        }
    }

    func suggestedEntities() async throws -> [PlayerEntity] {
        // No bus (the host describes a bundle with none of its access): the default alone.
        let players = (try? mediaPlayers.players(at: .now)) ?? []
        return [.whicheverIsPlaying] + players.map { PlayerEntity(id: $0.busName, name: $0.identity) }
    }

    func defaultResult() async -> PlayerEntity? { .whicheverIsPlaying }
}

/// The widget's parameter, edited in the Edit Widget form: which player.
struct NowPlayingConfigurationIntent: WidgetConfigurationIntent {
    static var title: LocalizedStringResource = "Now Playing"
    static var description = IntentDescription("What a music or video player is playing, with its controls.")

    @Parameter(title: "Player")
    var player: PlayerEntity?
}

/// A control's intent: sends its MPRIS command to the player `player` (a bus name) from the
/// worker. The player's `PropertiesChanged` reloads the widget, and the host reloads it once
/// after the click anyway.
protocol PlayerCommandIntent: AppIntent {
    static var command: PlayerCommand { get }
    var player: String { get }
}

extension PlayerCommandIntent {
    func perform() async throws -> some IntentResult {
        try mediaPlayers.send(Self.command, to: player)
        return .result()
    }
}

struct PreviousTrackIntent: PlayerCommandIntent {
    static var title: LocalizedStringResource = "Previous Track"
    static let command = PlayerCommand.previous
    @Parameter(title: "Player") var player: String
    init() {}
    init(player: String) { self.player = player }
}

struct PlayPauseIntent: PlayerCommandIntent {
    static var title: LocalizedStringResource = "Play/Pause"
    static let command = PlayerCommand.playPause
    @Parameter(title: "Player") var player: String
    init() {}
    init(player: String) { self.player = player }
}

struct NextTrackIntent: PlayerCommandIntent {
    static var title: LocalizedStringResource = "Next Track"
    static let command = PlayerCommand.next
    @Parameter(title: "Player") var player: String
    init() {}
    init(player: String) { self.player = player }
}
