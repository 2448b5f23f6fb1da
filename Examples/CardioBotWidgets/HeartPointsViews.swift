import FoundationEssentials
import OpenWidgetKit

struct HeartPointsEntryView: View {
    @Environment(\.widgetFamily) var size
    let entry: HeartPointsViewModel

    var body: some View {
        switch size {
        case .systemSmall:
            SmallWidgetEntryView(viewModel: entry).padding()
        case .systemMedium:
            HStack(alignment: .bottom) {
                SmallWidgetEntryView(viewModel: entry)
                HeartPointsChartView(viewModel: entry, labelCount: 6)
            }
            .padding()
        case .systemLarge:
            VStack(alignment: .leading) {
                HeartPointsView(viewModel: entry, showLabel: false)
                HeartPointsChartView(viewModel: entry)
            }
            .padding()
        default:
            SmallWidgetEntryView(viewModel: entry).padding()
        }
    }
}

/// Today's points against the goal, with a ring.
struct SmallWidgetEntryView: View {
    let viewModel: HeartPointsViewModel

    var body: some View {
        VStack(alignment: .leading, spacing: 4) {
            HeartPointsView(viewModel: viewModel, showLabel: true)
            Spacer()
            Gauge(value: viewModel.progress) {
                Image(systemName: "heart.fill")
            }
            .gaugeStyle(.accessoryCircularCapacity)
            .tint(.green)
            Text("goal \(viewModel.goal)")
                .font(.caption2)
                .foregroundStyle(.secondary)
        }
    }
}

struct HeartPointsView: View {
    let viewModel: HeartPointsViewModel
    let showLabel: Bool

    var body: some View {
        VStack(alignment: .leading, spacing: 2) {
            if showLabel {
                Label("Heart Pts", systemImage: "heart.fill")
                    .font(.caption.bold())
                    .foregroundStyle(.green)
            }
            Text("\(viewModel.heartPoints)")
                .font(.largeTitle.bold())
            if !showLabel {
                Text("heart points today, goal \(viewModel.goal)")
                    .font(.caption)
                    .foregroundStyle(.secondary)
            }
        }
    }
}

/// Points per hour as bars (the chart the article's medium and large layouts show).
struct HeartPointsChartView: View {
    let viewModel: HeartPointsViewModel
    var labelCount: Int = 12

    var body: some View {
        let hours = viewModel.pointsByHour
        let top = max(hours.max() ?? 0, 1)
        VStack(alignment: .leading, spacing: 2) {
            HStack(alignment: .bottom, spacing: 2) {
                ForEach(Array(hours.enumerated()), id: \.offset) { item in
                    Rectangle()
                        .fill(item.element > 0 ? Color.green : Color.secondary.opacity(0.3))
                        .frame(height: max(2, 48 * Double(item.element) / Double(top)))
                }
            }
            .frame(maxWidth: .infinity, maxHeight: 48, alignment: .bottom)
            HStack(spacing: 0) {
                ForEach(0..<labelCount, id: \.self) { i in
                    Text("\(i * 24 / labelCount)")
                        .font(.caption2)
                        .foregroundStyle(.secondary)
                    if i < labelCount - 1 { Spacer() }
                }
            }
        }
    }
}
