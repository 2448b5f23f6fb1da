import FoundationEssentials
import OpenWidgetKit

/// The album art, rounded; without art (none, not a PNG, or a file the worker may not read:
/// docs/widgets/now-playing.md "Album art") Apple's placeholder: a music note on a soft grey
/// gradient.
struct ArtworkView: View {
    var size: Double
    var artwork: UIImage?
    var body: some View {
        ZStack {
            if let artwork {
                Image(uiImage: artwork).resizable().scaledToFill()
            } else {
                LinearGradient(colors: [Color(white: 0.9), Color(white: 0.72)], startPoint: .topLeading, endPoint: .bottomTrailing)
                Image(systemName: "music.note")
                    .font(.system(size: size * 0.42))
                    .foregroundStyle(Color.white)
            }
        }
        .frame(width: size, height: size)
        .clipShape(RoundedRectangle(cornerRadius: size * 0.12))
    }
}

/// One of the three controls: a `Button(intent:)` when the player allows it, else the same
/// glyph dimmed and inert (Apple's disabled look).
struct ControlButton<I: AppIntent>: View {
    let symbol: String
    let enabled: Bool
    let intent: I
    var font: Font = .title3

    var body: some View {
        if enabled {
            Button(intent: intent) { Image(systemName: symbol).font(font) }
                .buttonStyle(.plain)
        } else {
            Image(systemName: symbol).font(font).opacity(0.3)
        }
    }
}

/// Previous, Play/Pause and Next for `player`.
struct TransportControls: View {
    let player: MediaPlayer
    var font: Font = .title3
    var spacing: Double = 22

    var body: some View {
        HStack(spacing: spacing) {
            ControlButton(symbol: "backward.fill", enabled: player.canGoPrevious, intent: PreviousTrackIntent(player: player.busName), font: font)
            ControlButton(symbol: player.status == .playing ? "pause.fill" : "play.fill",
                          enabled: player.status == .playing ? player.canPause : player.canPlay,
                          intent: PlayPauseIntent(player: player.busName), font: font)
            ControlButton(symbol: "forward.fill", enabled: player.canGoNext, intent: NextTrackIntent(player: player.busName), font: font)
        }
    }
}

/// "1:23" from seconds.
func clockText(_ seconds: TimeInterval) -> String {
    let s = max(0, Int(seconds.rounded(.down)))
    let h = s / 3600, m = (s % 3600) / 60, r = s % 60
    let mm = h > 0 && m < 10 ? "0\(m)" : "\(m)"
    return (h > 0 ? "\(h):" : "") + mm + ":" + (r < 10 ? "0\(r)" : "\(r)")
}

/// The progress bar and, with `times`, the elapsed and remaining time under it: ticking by
/// themselves while playing (the host moves them), still when paused.
struct TrackProgress: View {
    let entry: NowPlayingEntry
    var times = true

    var body: some View {
        VStack(spacing: 3) {
            bar.tint(.primary)
            if times, let player = entry.player, player.length != nil {
                HStack {
                    elapsed(player)
                    Spacer(minLength: 4)
                    remaining(player)
                }
                .font(.caption2.monospacedDigit())
                .foregroundStyle(.secondary)
            }
        }
    }

    @ViewBuilder private var bar: some View {
        if let interval = entry.playingInterval {
            ProgressView(timerInterval: interval, countsDown: false)
                .progressViewStyle(.linear)
        } else {
            ProgressView(value: entry.fraction ?? 0).progressViewStyle(.linear)
        }
    }

    @ViewBuilder private func elapsed(_ p: MediaPlayer) -> some View {
        if let interval = entry.playingInterval {
            Text(timerInterval: interval, countsDown: false)
        } else {
            Text(clockText(p.position ?? 0))
        }
    }

    @ViewBuilder private func remaining(_ p: MediaPlayer) -> some View {
        if let interval = entry.playingInterval {
            Text("-") + Text(timerInterval: interval, countsDown: true)
        } else {
            Text("-" + clockText((p.length ?? 0) - (p.position ?? 0)))
        }
    }
}

/// Every family of the widget. Layout only: the entry holds what to show.
struct NowPlayingView: View {
    @Environment(\.widgetFamily) var family
    let entry: NowPlayingEntry

    var body: some View {
        if let player = entry.player {
            switch family {
            case .systemSmall: small(player)
            case .systemMedium: medium(player)
            case .accessoryCircular: circular(player)
            case .accessoryRectangular: rectangular(player)
            default: inline(player)
            }
        } else {
            notPlaying
        }
    }

    private func title(_ p: MediaPlayer) -> String { p.title ?? "Unknown Title" }

    /// Art and the play/pause button on top, title and artist under them, the bar at the bottom.
    private func small(_ p: MediaPlayer) -> some View {
        VStack(alignment: .leading, spacing: 4) {
            HStack(alignment: .top) {
                ArtworkView(size: 58, artwork: entry.artwork)
                Spacer(minLength: 4)
                ControlButton(symbol: p.status == .playing ? "pause.fill" : "play.fill",
                              enabled: p.status == .playing ? p.canPause : p.canPlay,
                              intent: PlayPauseIntent(player: p.busName), font: .title2)
            }
            Spacer(minLength: 0)
            Text(title(p)).font(.subheadline).fontWeight(.semibold).lineLimit(2)
            if let artist = p.artist { Text(artist).font(.caption).foregroundStyle(.secondary).lineLimit(1) }
            TrackProgress(entry: entry, times: false).padding(.top, 2)
        }
        .frame(maxWidth: .infinity, alignment: .leading)
    }

    /// The Lock Screen's Now Playing: art left; title, artist, album; the bar with its times;
    /// the three controls.
    private func medium(_ p: MediaPlayer) -> some View {
        HStack(spacing: 14) {
            ArtworkView(size: 118, artwork: entry.artwork)
            VStack(alignment: .leading, spacing: 2) {
                Text(title(p)).font(.headline).lineLimit(1)
                if let artist = p.artist { Text(artist).font(.subheadline).foregroundStyle(.secondary).lineLimit(1) }
                if let album = p.album { Text(album).font(.caption).foregroundStyle(.tertiary).lineLimit(1) }
                Spacer(minLength: 4)
                TrackProgress(entry: entry)
                TransportControls(player: p).frame(maxWidth: .infinity).padding(.top, 4)
            }
            .frame(maxWidth: .infinity, alignment: .leading)
        }
    }

    /// A progress ring around the play/pause glyph (a click toggles it).
    private func circular(_ p: MediaPlayer) -> some View {
        let glyph = Image(systemName: p.status == .playing ? "pause.fill" : "play.fill").font(.title3)
        return ZStack {
            if let interval = entry.playingInterval {
                ProgressView(timerInterval: interval, countsDown: false)
                    .progressViewStyle(.circular)
            } else {
                Gauge(value: entry.fraction ?? 0) { EmptyView() }.gaugeStyle(.accessoryCircularCapacity)
            }
            Button(intent: PlayPauseIntent(player: p.busName)) { glyph }.buttonStyle(.plain)
        }
        .widgetAccentable()
    }

    private func rectangular(_ p: MediaPlayer) -> some View {
        VStack(alignment: .leading, spacing: 1) {
            Label(title(p), systemImage: p.status == .playing ? "music.note" : "pause.fill").font(.headline).lineLimit(1).widgetAccentable()
            Text(p.artist ?? p.identity).font(.caption).lineLimit(1)
            TrackProgress(entry: entry, times: false).padding(.top, 2)
        }
        .frame(maxWidth: .infinity, alignment: .leading)
    }

    /// "Clair de Lune · Claude Debussy".
    private func inline(_ p: MediaPlayer) -> some View {
        Label(title(p) + (p.artist.map { " · " + $0 } ?? ""), systemImage: p.status == .playing ? "music.note" : "pause.fill")
    }

    /// Apple's "Not Playing": the note, dimmed.
    @ViewBuilder private var notPlaying: some View {
        switch family {
        case .accessoryInline, .accessoryRectangular:
            Label("Not Playing", systemImage: "music.note")
        case .accessoryCircular:
            Image(systemName: "music.note").font(.title2).foregroundStyle(.secondary)
        case .systemSmall:
            VStack(alignment: .leading, spacing: 6) {
                ArtworkView(size: 58)
                Spacer(minLength: 0)
                Text("Not Playing").font(.subheadline).fontWeight(.semibold).foregroundStyle(.secondary)
            }
            .frame(maxWidth: .infinity, alignment: .leading)
        default:
            HStack(spacing: 14) {
                ArtworkView(size: 118)
                Text("Not Playing").font(.headline).foregroundStyle(.secondary)
                    .frame(maxWidth: .infinity, alignment: .leading)
            }
        }
    }
}
