import FoundationEssentials
import OpenWidgetKit

/// What one entry shows: the followed player as read at `date`, nil when nothing plays or
/// pauses ("Not Playing").
struct NowPlayingEntry: TimelineEntry {
    let date: Date
    let player: MediaPlayer?
    /// The player's `mpris:artUrl` when it is a PNG file the worker can read.
    var artwork: UIImage? = nil

    var isPlaying: Bool { player?.status == .playing }

    /// While playing with a known length and position: the track's span on the wall clock, so
    /// the progress bar and the timers move by themselves. The position was read at `date`
    /// (`readAt`), and the track plays `rate` seconds per second: it started `position / rate`
    /// before and ends `(length - position) / rate` after.
    var playingInterval: ClosedRange<Date>? {
        guard let p = player, p.status == .playing, let length = p.length, let position = p.position else { return nil }
        let start = p.readAt.addingTimeInterval(-min(position, length) / p.rate)
        return start...start.addingTimeInterval(length / p.rate)
    }

    /// How far the track is, 0…1, for a paused or stopped one (static); nil without a length.
    var fraction: Double? {
        guard let p = player, let length = p.length, length > 0 else { return nil }
        return min(1, max(0, (p.position ?? 0) / length))
    }

    /// A track for the gallery and placeholders (fixed, from no machine's player).
    static func sample(at date: Date) -> NowPlayingEntry {
        NowPlayingEntry(date: date, player: MediaPlayer(
            busName: MediaPlayer.prefix + "sample", root: ["Identity": .string("Music")],
            player: ["PlaybackStatus": .string("Playing"), "Position": .int(83_000_000), "Rate": .double(1),
                     "CanGoNext": .bool(true), "CanGoPrevious": .bool(true), "CanPlay": .bool(true), "CanPause": .bool(true),
                     "Metadata": .dictionary(["xesam:title": .string("Clair de Lune"), "xesam:artist": .array([.string("Claude Debussy")]),
                                              "xesam:album": .string("Suite bergamasque"), "mpris:length": .int(302_000_000)])],
            readAt: date))
    }
}

/// Reads the followed player at each reload and gives one entry with no reload due: a player's
/// `PropertiesChanged` (a new track, play, pause), `Seeked`, or a player appearing or leaving
/// reloads the widget (the bundle's `busSignals`), and the progress ticks by itself in
/// between (`ProgressView(timerInterval:)`). Never polls. Threading: the SDK calls it from its
/// own task; it keeps no state.
struct NowPlayingProvider: AppIntentTimelineProvider {
    typealias Entry = NowPlayingEntry
    typealias Intent = NowPlayingConfigurationIntent

    let source: any MediaPlayerSource
    /// The clock the position is dated by (fixed in tests).
    let now: @Sendable () -> Date

    init(source: any MediaPlayerSource = mediaPlayers, now: @escaping @Sendable () -> Date = { Date.now }) {
        self.source = source
        self.now = now
    }

    func placeholder(in context: Context) -> NowPlayingEntry { .sample(at: now()) }

    func snapshot(for configuration: NowPlayingConfigurationIntent, in context: Context) async -> NowPlayingEntry {
        let e = entry(for: configuration)
        // The gallery shows the sample where nothing plays.
        return e.player == nil && context.isPreview ? .sample(at: e.date) : e
    }

    func timeline(for configuration: NowPlayingConfigurationIntent, in context: Context) async -> Timeline<NowPlayingEntry> {
        Timeline(entries: [entry(for: configuration)], policy: .never)
    }

    /// The entry now: the configured player if it plays or pauses, else (for "Whichever Is
    /// Playing") the first playing or paused one; none without a bus.
    func entry(for configuration: NowPlayingConfigurationIntent) -> NowPlayingEntry {
        let date = now()
        let players = (try? source.players(at: date)) ?? []
        let chosen: MediaPlayer?
        if let name = configuration.player?.busName {
            chosen = players.first { $0.busName == name && $0.status != .stopped }
        } else {
            chosen = MediaPlayer.active(among: players)
        }
        return NowPlayingEntry(date: date, player: chosen, artwork: chosen.flatMap(Self.artwork))
    }

    /// The art of a `file://` `mpris:artUrl`, read when the sandbox lets the worker read it (a
    /// folder the person granted the bundle); nil otherwise, and for other schemes (`https:`).
    static func artwork(of player: MediaPlayer) -> UIImage? {
        guard let text = player.artURL, let url = URL(string: text), url.isFileURL else { return nil }
        return UIImage(contentsOfFile: url.path)
    }
}
