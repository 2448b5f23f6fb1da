import FoundationEssentials
import SessionBus

/// What an MPRIS player reports (`org.mpris.MediaPlayer2` and `.Player` on
/// `/org/mpris/MediaPlayer2`), read at `readAt`. Value type; any thread.
struct MediaPlayer: Hashable, Sendable {
    enum Status: String, Sendable { case playing = "Playing", paused = "Paused", stopped = "Stopped" }

    /// Its bus name, `org.mpris.MediaPlayer2.vlc` (the entity's id).
    let busName: String
    /// `Identity` ("VLC media player"); the bus name's last element when it has none.
    let identity: String
    let status: Status
    let title: String?
    let artist: String?
    let album: String?
    /// `mpris:artUrl`, as given (any scheme).
    let artURL: String?
    /// `mpris:length` in seconds.
    let length: TimeInterval?
    /// `Position` in seconds, at `readAt`.
    let position: TimeInterval?
    /// `Rate` (1 is normal speed).
    let rate: Double
    let canGoNext: Bool
    let canGoPrevious: Bool
    let canPlay: Bool
    let canPause: Bool
    /// When `position` was read.
    let readAt: Date

    static let prefix = "org.mpris.MediaPlayer2."
    static let path = "/org/mpris/MediaPlayer2"
    static let playerInterface = "org.mpris.MediaPlayer2.Player"

    /// A player from its two property maps (`GetAll`), tolerating any missing or ill-typed property.
    init(busName: String, root: [String: BusValue], player: [String: BusValue], readAt: Date) {
        self.busName = busName
        let identity = root["Identity"]?.stringValue ?? ""
        self.identity = identity.isEmpty ? String(busName.dropFirst(Self.prefix.count)) : identity
        status = player["PlaybackStatus"]?.stringValue.flatMap(Status.init(rawValue:)) ?? .stopped
        let metadata = player["Metadata"]?.dictionaryValue ?? [:]
        func text(_ v: BusValue?) -> String? {
            let s = v?.stringValue ?? v?.stringsValue?.joined(separator: ", ")
            return s?.isEmpty == false ? s : nil
        }
        title = text(metadata["xesam:title"])
        artist = text(metadata["xesam:artist"])
        album = text(metadata["xesam:album"])
        artURL = text(metadata["mpris:artUrl"])
        length = metadata["mpris:length"]?.intValue.flatMap { $0 > 0 ? TimeInterval($0) / 1_000_000 : nil }
        position = player["Position"]?.intValue.flatMap { $0 >= 0 ? TimeInterval($0) / 1_000_000 : nil }
        let rate = player["Rate"]?.doubleValue ?? 1
        self.rate = rate.isFinite && rate > 0 ? rate : 1
        canGoNext = player["CanGoNext"]?.boolValue ?? false
        canGoPrevious = player["CanGoPrevious"]?.boolValue ?? false
        canPlay = player["CanPlay"]?.boolValue ?? false
        canPause = player["CanPause"]?.boolValue ?? false
        self.readAt = readAt
    }

    /// The player "Whichever Is Playing" means: the first playing one (by bus name), else the
    /// first paused one; nil when none plays or pauses.
    static func active(among players: [MediaPlayer]) -> MediaPlayer? {
        let sorted = players.sorted { $0.busName < $1.busName }
        return sorted.first { $0.status == .playing } ?? sorted.first { $0.status == .paused }
    }
}

/// The three commands of the widget's buttons, as MPRIS names them.
enum PlayerCommand: String, Sendable { case previous = "Previous", playPause = "PlayPause", next = "Next" }

/// Where the players come from and where commands go: the session bus (`SessionBusPlayers`),
/// or a fixed list in the SDK's previews. Implementations are safe from any thread.
protocol MediaPlayerSource: Sendable {
    /// The players on the bus now; throws when there is no bus.
    func players(at date: Date) throws -> [MediaPlayer]
    /// One player's `Identity` (for the picker and a configured name), nil when it is not there.
    func identity(of busName: String) -> String?
    func send(_ command: PlayerCommand, to busName: String) throws
}

/// The players on the session bus, through the SDK's `SessionBus` (in a worker: the proxy that
/// lets the bundle reach `org.mpris.MediaPlayer2.*` and nothing else). Synchronous calls, each
/// within `SessionBus`'s timeout; any thread.
struct SessionBusPlayers: MediaPlayerSource {
    func players(at date: Date) throws -> [MediaPlayer] {
        let bus = try SessionBus.session()
        return try bus.listNames().filter { $0.hasPrefix(MediaPlayer.prefix) }.sorted().compactMap { name in
            // A player that leaves between ListNames and GetAll is simply not there.
            guard let player = try? bus.properties(interface: MediaPlayer.playerInterface, destination: name, path: MediaPlayer.path)
            else { return nil }
            let root = (try? bus.properties(interface: "org.mpris.MediaPlayer2", destination: name, path: MediaPlayer.path)) ?? [:]
            return MediaPlayer(busName: name, root: root, player: player, readAt: date)
        }
    }

    func identity(of busName: String) -> String? {
        guard let bus = try? SessionBus.session() else { return nil }
        return try? bus.property("Identity", interface: "org.mpris.MediaPlayer2", destination: busName, path: MediaPlayer.path).stringValue
    }

    func send(_ command: PlayerCommand, to busName: String) throws {
        _ = try SessionBus.session().call(destination: busName, path: MediaPlayer.path, interface: MediaPlayer.playerInterface,
                                          member: command.rawValue)
    }
}
