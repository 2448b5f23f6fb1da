import FoundationEssentials
import OpenWidgetKit

struct HabitWidgetView: View {
    let entry: HabitEntry

    @Environment(\.widgetFamily) var family

    var progress: Double {
        guard entry.goalCount > 0 else { return 0 }
        return Double(entry.completedCount) / Double(entry.goalCount)
    }

    var body: some View {
        switch family {
        case .systemSmall:
            smallWidget
                .widgetURL(URL(string: "myapp://habit/drink-water"))
        case .systemMedium:
            mediumWidget
        case .systemLarge:
            largeWidget
        case .accessoryCircular:
            circularWidget
        case .accessoryRectangular:
            rectangularWidget
        case .accessoryInline:
            inlineWidget
        default:
            smallWidget
        }
    }

    // MARK: - Small Widget
    private var smallWidget: some View {
        VStack(alignment: .leading, spacing: 8) {
            HStack {
                Image(systemName: "flame.fill")
                    .foregroundStyle(.orange)
                    .font(.title3)
                Text("\(entry.streakDays)d streak")
                    .font(.caption)
                    .foregroundStyle(.secondary)
            }

            Spacer()

            Text(entry.habitName)
                .font(.headline)
                .lineLimit(1)

            ProgressView(value: progress)
                .tint(progress >= 1.0 ? .green : .blue)

            Text("\(entry.completedCount)/\(entry.goalCount)")
                .font(.caption2)
                .foregroundStyle(.secondary)
        }
        .padding()
    }

    // MARK: - Medium Widget
    private var mediumWidget: some View {
        HStack(spacing: 16) {
            // Left: circular progress
            ZStack {
                Circle()
                    .stroke(.quaternary, lineWidth: 8)
                Circle()
                    .trim(from: 0, to: progress)
                    .stroke(
                        progress >= 1.0 ? .green : .blue,
                        style: StrokeStyle(
                            lineWidth: 8,
                            lineCap: .round
                        )
                    )
                    .rotationEffect(.degrees(-90))

                VStack(spacing: 2) {
                    Text("\(Int(progress * 100))%")
                        .font(.title2.bold())
                    Text("done")
                        .font(.caption2)
                        .foregroundStyle(.secondary)
                }
            }
            .frame(width: 80, height: 80)

            // Right: details
            VStack(alignment: .leading, spacing: 6) {
                Text(entry.habitName)
                    .font(.headline)

                Text("\(entry.completedCount) of \(entry.goalCount) completed")
                    .font(.subheadline)
                    .foregroundStyle(.secondary)

                HStack(spacing: 4) {
                    Image(systemName: "flame.fill")
                        .foregroundStyle(.orange)
                        .font(.caption)
                    Text("\(entry.streakDays) day streak")
                        .font(.caption)
                        .foregroundStyle(.secondary)
                }

                if progress >= 1.0 {
                    Label("Goal reached!", systemImage: "checkmark.circle.fill")
                        .font(.caption.bold())
                        .foregroundStyle(.green)
                }
            }

            Spacer()
        }
        .padding()
    }

    // MARK: - Large Widget
    private var largeWidget: some View {
        VStack(alignment: .leading, spacing: 12) {
            // Header
            HStack {
                VStack(alignment: .leading, spacing: 2) {
                    Text(entry.habitName)
                        .font(.title3.bold())
                    Text("Today's progress")
                        .font(.subheadline)
                        .foregroundStyle(.secondary)
                }
                Spacer()
                HStack(spacing: 4) {
                    Image(systemName: "flame.fill")
                        .foregroundStyle(.orange)
                    Text("\(entry.streakDays)d")
                        .font(.subheadline.bold())
                }
            }

            // Large progress ring
            HStack {
                Spacer()
                ZStack {
                    Circle()
                        .stroke(.quaternary, lineWidth: 12)
                    Circle()
                        .trim(from: 0, to: progress)
                        .stroke(
                            progress >= 1.0 ? .green : .blue,
                            style: StrokeStyle(
                                lineWidth: 12,
                                lineCap: .round
                            )
                        )
                        .rotationEffect(.degrees(-90))

                    VStack(spacing: 4) {
                        Text("\(entry.completedCount)")
                            .font(.system(size: 36, weight: .bold))
                        Text("of \(entry.goalCount)")
                            .font(.caption)
                            .foregroundStyle(.secondary)
                    }
                }
                .frame(width: 120, height: 120)
                Spacer()
            }

            Spacer()

            // Weekly summary placeholder
            VStack(alignment: .leading, spacing: 6) {
                Text("This Week")
                    .font(.caption.bold())
                    .foregroundStyle(.secondary)

                HStack(spacing: 4) {
                    ForEach(0..<7, id: \.self) { day in
                        RoundedRectangle(cornerRadius: 4)
                            .fill(day < entry.streakDays % 7
                                  ? Color.green.opacity(0.8)
                                  : Color.secondary.opacity(0.2))
                            .frame(height: 24)
                    }
                }
            }

            if progress >= 1.0 {
                Label(
                    "Goal complete — keep it going!",
                    systemImage: "star.fill"
                )
                .font(.caption.bold())
                .foregroundStyle(.yellow)
            }
        }
        .padding()
    }
}

// Add to HabitWidgetView
extension HabitWidgetView {

    // Circular: progress ring with count
    var circularWidget: some View {
        Gauge(value: progress) {
            Text("\(entry.completedCount)")
                .font(.system(.title3, design: .rounded).bold())
        }
        .gaugeStyle(.accessoryCircularCapacity)
        .tint(progress >= 1.0 ? .green : .blue)
    }

    // Rectangular: multi-line summary
    var rectangularWidget: some View {
        VStack(alignment: .leading, spacing: 2) {
            HStack(spacing: 4) {
                Image(systemName: "flame.fill")
                    .font(.caption2)
                Text("\(entry.streakDays)d streak")
                    .font(.caption2.bold())
            }

            Text(entry.habitName)
                .font(.headline)
                .lineLimit(1)

            ProgressView(value: progress)

            Text("\(entry.completedCount)/\(entry.goalCount) today")
                .font(.caption2)
                .foregroundStyle(.secondary)
        }
    }

    // Inline: text beside the date
    var inlineWidget: some View {
        HStack(spacing: 4) {
            Image(systemName: "flame.fill")
            Text("\(entry.habitName): \(entry.completedCount)/\(entry.goalCount)")
        }
    }
}
