import FoundationEssentials
import OpenWidgetKit

/// The widget's look in each family, after Apple's Weather widget: white text on a sky that
/// follows the condition and the time of day; a stale forecast greyed, with when it was fetched.
/// Pure views of a `WeatherEntry`.
struct WeatherWidgetView: View {
    @Environment(\.widgetFamily) var family
    let entry: WeatherEntry

    var body: some View {
        switch family {
        case .accessoryCircular: WeatherCircularView(entry: entry)
        case .accessoryRectangular: WeatherRectangularView(entry: entry)
        case .accessoryInline: WeatherInlineView(entry: entry)
        case .systemMedium: WeatherMediumView(entry: entry)
        default: WeatherSmallView(entry: entry)
        }
    }
}

/// The sky behind the home-screen families.
struct WeatherSky: View {
    let entry: WeatherEntry

    var colors: [Color] {
        if entry.stale || entry.problem != nil { return [Color(red: 0.42, green: 0.45, blue: 0.49), Color(red: 0.58, green: 0.61, blue: 0.65)] }
        switch (entry.isDay, entry.condition.clearSky) {
        case (true, true): return [Color(red: 0.16, green: 0.47, blue: 0.85), Color(red: 0.38, green: 0.66, blue: 0.94)]
        case (true, false): return [Color(red: 0.40, green: 0.49, blue: 0.60), Color(red: 0.60, green: 0.67, blue: 0.75)]
        case (false, true): return [Color(red: 0.04, green: 0.09, blue: 0.22), Color(red: 0.15, green: 0.24, blue: 0.42)]
        case (false, false): return [Color(red: 0.16, green: 0.19, blue: 0.25), Color(red: 0.29, green: 0.33, blue: 0.40)]
        }
    }

    var body: some View {
        LinearGradient(colors: colors, startPoint: .top, endPoint: .bottom)
    }
}

extension View {
    /// A home-screen family's frame: white on the sky, dimmed when stale.
    func weatherCard(_ entry: WeatherEntry, alignment: Alignment) -> some View {
        frame(maxWidth: .infinity, maxHeight: .infinity, alignment: alignment)
            .foregroundStyle(.white)
            .opacity(entry.stale ? 0.75 : 1)
            .containerBackground(for: .widget) { WeatherSky(entry: entry) }
    }
}

/// "2 hr, 5 min ago" after a no-connection symbol: a live relative date, so it ages without a
/// reload.
struct UpdatedLine: View {
    let updated: Date

    var body: some View {
        HStack(spacing: 3) {
            Image(systemName: "wifi.slash")
            Text(updated, style: .relative) + Text(" ago")
        }
        .lineLimit(1)
    }
}

/// Degrees as Apple writes them: "8°".
func degrees(_ value: Int) -> String { "\(value)°" }

struct WeatherSmallView: View {
    let entry: WeatherEntry

    var body: some View {
        VStack(alignment: .leading, spacing: 2) {
            Text(entry.place)
                .font(.subheadline.weight(.semibold))
                .lineLimit(1)
            if let problem = entry.problem {
                Spacer(minLength: 0)
                Image(systemName: "wifi.slash").font(.title3)
                Text("Weather unavailable").font(.caption.weight(.semibold))
                Text(problem).font(.caption2).lineLimit(3).opacity(0.8)
            } else {
                Text(degrees(entry.temperature))
                    .font(.system(size: 42, weight: .light))
                Spacer(minLength: 0)
                if entry.stale, let updated = entry.updated {
                    UpdatedLine(updated: updated).font(.caption2)
                } else {
                    Image(systemName: entry.condition.symbol(isDay: entry.isDay))
                        .symbolRenderingMode(.multicolor)
                        .font(.callout)
                }
                Text(entry.condition.text)
                    .font(.caption.weight(.semibold))
                    .lineLimit(1)
                Text("H:\(degrees(entry.high)) L:\(degrees(entry.low))")
                    .font(.caption.weight(.medium))
            }
        }
        .weatherCard(entry, alignment: .leading)
    }
}

struct WeatherMediumView: View {
    let entry: WeatherEntry

    var body: some View {
        VStack(alignment: .leading, spacing: 6) {
            HStack(alignment: .top) {
                VStack(alignment: .leading, spacing: 0) {
                    Text(entry.place)
                        .font(.subheadline.weight(.semibold))
                        .lineLimit(1)
                    Text(entry.problem == nil ? degrees(entry.temperature) : "–")
                        .font(.system(size: 42, weight: .light))
                }
                Spacer(minLength: 8)
                VStack(alignment: .trailing, spacing: 2) {
                    if entry.problem != nil {
                        Image(systemName: "wifi.slash").font(.callout)
                        Text("Weather unavailable").font(.caption.weight(.semibold))
                    } else {
                        Image(systemName: entry.condition.symbol(isDay: entry.isDay))
                            .symbolRenderingMode(.multicolor)
                            .font(.callout)
                        Text(entry.condition.text).font(.caption.weight(.semibold)).lineLimit(1)
                        if entry.stale, let updated = entry.updated {
                            UpdatedLine(updated: updated).font(.caption)
                        } else {
                            Text("H:\(degrees(entry.high)) L:\(degrees(entry.low))").font(.caption.weight(.medium))
                        }
                    }
                }
            }
            Spacer(minLength: 0)
            if let problem = entry.problem {
                Text(problem).font(.caption).lineLimit(3).opacity(0.9)
            }
            HStack(spacing: 0) {
                ForEach(Array(entry.hours.enumerated()), id: \.offset) { _, hour in
                    VStack(spacing: 5) {
                        Text(hour.label).font(.caption2.weight(.medium)).opacity(0.9)
                        Image(systemName: hour.symbol)
                            .symbolRenderingMode(.multicolor)
                            .font(.callout)
                        Text(degrees(hour.temperature)).font(.callout.weight(.medium))
                    }
                    .frame(maxWidth: .infinity)
                }
            }
        }
        .weatherCard(entry, alignment: .topLeading)
    }
}

/// The Lock Screen's circle: the temperature on a gauge from the day's low to its high.
struct WeatherCircularView: View {
    let entry: WeatherEntry

    var body: some View {
        Group {
            if entry.problem != nil {
                Image(systemName: "wifi.slash").font(.title3)
            } else {
                Gauge(value: Double(entry.temperature), in: Double(entry.low)...Double(max(entry.high, entry.low + 1))) {
                    Image(systemName: entry.condition.symbol(isDay: entry.isDay))
                } currentValueLabel: {
                    Text(degrees(entry.temperature))
                } minimumValueLabel: {
                    Text("\(entry.low)")
                } maximumValueLabel: {
                    Text("\(entry.high)")
                }
                .gaugeStyle(.accessoryCircular)
                .opacity(entry.stale ? 0.5 : 1)
            }
        }
        .containerBackground(.clear, for: .widget)
    }
}

struct WeatherRectangularView: View {
    let entry: WeatherEntry

    var body: some View {
        VStack(alignment: .leading, spacing: 0) {
            HStack(spacing: 4) {
                Image(systemName: entry.problem == nil ? entry.condition.symbol(isDay: entry.isDay) : "wifi.slash")
                Text(entry.place).font(.headline).lineLimit(1)
            }
            if let problem = entry.problem {
                Text(problem).font(.caption).lineLimit(2)
            } else {
                Text("\(degrees(entry.temperature)) \(entry.condition.text)").lineLimit(1)
                if entry.stale, let updated = entry.updated {
                    (Text(updated, style: .relative) + Text(" ago")).lineLimit(1).foregroundStyle(.secondary)
                } else {
                    Text("H:\(degrees(entry.high)) L:\(degrees(entry.low))")
                }
            }
        }
        .frame(maxWidth: .infinity, alignment: .leading)
        .containerBackground(.clear, for: .widget)
    }
}

struct WeatherInlineView: View {
    let entry: WeatherEntry

    var body: some View {
        if entry.problem != nil {
            Label("\(entry.place) –", systemImage: "wifi.slash")
        } else if entry.stale {
            Label("\(entry.place) \(degrees(entry.temperature)) (old)", systemImage: entry.condition.symbol(isDay: entry.isDay))
        } else {
            Label("\(entry.place) \(degrees(entry.temperature)) \(entry.condition.text)", systemImage: entry.condition.symbol(isDay: entry.isDay))
        }
    }
}
