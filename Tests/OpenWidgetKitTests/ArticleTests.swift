import Testing
import FoundationEssentials
import OpenWidgetKit

// The article's widget code, unchanged but for the import.

struct HabitEntry {
    let date: Date
    let habitName: String
    let streakDays: Int
    let completedCount: Int
    let goalCount: Int
    let isCompleted: Bool
}

struct StatEntry {
    let value: Double
    let unit: String
}

struct HabitSmallView: View {
    let entry: HabitEntry
    var progress: Double { Double(entry.completedCount) / Double(entry.goalCount) }

    var body: some View {
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
}

struct HabitMediumView: View {
    let entry: HabitEntry
    var progress: Double { Double(entry.completedCount) / Double(entry.goalCount) }

    var body: some View {
        HStack(spacing: 16) {
            ZStack {
                Circle()
                    .stroke(.quaternary, lineWidth: 8)
                Circle()
                    .trim(from: 0, to: progress)
                    .stroke(progress >= 1.0 ? .green : .blue, style: StrokeStyle(lineWidth: 8, lineCap: .round))
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

            VStack(alignment: .leading, spacing: 6) {
                Text(entry.habitName)
                    .font(.system(.title3, design: .rounded).bold())
                HStack(spacing: 4) {
                    ForEach(0..<7, id: \.self) { day in
                        RoundedRectangle(cornerRadius: 4)
                            .fill(day < entry.streakDays % 7 ? Color.green.opacity(0.8) : Color.secondary.opacity(0.2))
                            .frame(height: 24)
                    }
                }
                if entry.isCompleted {
                    Label("Goal reached!", systemImage: "checkmark.circle.fill")
                        .font(.caption.bold())
                        .foregroundStyle(.green)
                } else {
                    Button(intent: LogHabitIntent()) {
                        Label("Log", systemImage: "plus.circle.fill")
                            .font(.subheadline.bold())
                    }
                    .tint(.green)
                }
                Toggle(isOn: entry.isCompleted, intent: ToggleHabitIntent(isCompleted: !entry.isCompleted)) {
                    Text(entry.habitName).font(.headline)
                }
            }
        }
        .padding()
    }
}

struct HabitWidgetEntryView: View {
    @Environment(\.widgetFamily) var family
    let entry: HabitEntry

    var body: some View {
        switch family {
        case .systemSmall:
            smallWidget
        default:
            HabitMediumView(entry: entry)
                .widgetURL(URL(string: "myapp://habit/exercise"))
        }
    }

    var smallWidget: some View {
        HabitSmallView(entry: entry)
            .widgetURL(URL(string: "myapp://habit/drink-water"))
    }
}

struct StatsView: View {
    @Environment(\.widgetFamily) var family
    let entry: StatEntry
    var progress: Double { entry.value / 15_000 }

    var body: some View {
        switch family {
        case .accessoryCircular:
            Gauge(value: entry.value, in: 0...15_000) {
                Image(systemName: "figure.walk")
            } currentValueLabel: {
                Text(entry.value / 1_000, format: .number.precision(.fractionLength(1)))
            }
            .gaugeStyle(.accessoryCircular)
            .containerBackground(.clear, for: .widget)
        case .accessoryRectangular:
            Gauge(value: progress) {
                Text("\(Int(entry.value))")
            }
            .gaugeStyle(.accessoryCircularCapacity)
            .tint(.green)
        default:
            VStack(alignment: .leading) {
                Text(entry.value, format: .number.precision(.fractionLength(0)))
                    .font(family == .systemSmall ? .title : .largeTitle)
                    .fontWeight(.bold)
                    .minimumScaleFactor(0.6)
                    .accessibilityLabel("\(Int(entry.value)) \(entry.unit)")
                Text(entry.unit)
                    .font(.system(size: 36, weight: .bold))
                Link(destination: URL(string: "myapp://habit/exercise")!) { Text("x") }
            }
            .frame(maxWidth: .infinity, maxHeight: .infinity, alignment: .leading)
            .containerBackground(.fill.tertiary, for: .widget)
        }
    }
}

private func evaluate<V: View>(_ v: V, _ family: WidgetFamily) -> ViewNode {
    var env = EnvironmentValues()
    env.widgetFamily = family
    return ViewEvaluator.evaluate(v, environment: env)
}

@Test func articleHabitWidgetSmall() {
    let entry = HabitEntry(date: Date(), habitName: "Drink water", streakDays: 9, completedCount: 3, goalCount: 8, isCompleted: false)
    let node = evaluate(HabitWidgetEntryView(entry: entry), .systemSmall)
    #expect(node.kind == .vstack)
    #expect(node.alignment == "leading")
    #expect(node.spacing == 8)
    #expect(node.modifiers?.padding?.leading == 16)
    #expect(node.modifiers?.widgetURL == "myapp://habit/drink-water")
    #expect(node.childNodes.map(\.kind) == [.hstack, .spacer, .text, .progress, .text])
    let flame = node.childNodes[0].childNodes[0]
    #expect(flame.symbol == "flame.fill")
    #expect(flame.modifiers?.foreground?.name == "orange")
    #expect(flame.modifiers?.font?.style == "title3")
    #expect(node.childNodes[0].childNodes[1].text == "9d streak")
    #expect(node.childNodes[3].value == 0.375)
    #expect(node.childNodes[3].modifiers?.tint?.name == "blue")
    #expect(node.childNodes[4].text == "3/8")
}

@Test func articleHabitWidgetMedium() {
    let entry = HabitEntry(date: Date(), habitName: "Run", streakDays: 10, completedCount: 8, goalCount: 8, isCompleted: false)
    let node = evaluate(HabitWidgetEntryView(entry: entry), .systemMedium)
    #expect(node.modifiers?.widgetURL == "myapp://habit/exercise")
    let ring = node.childNodes[0]
    #expect(ring.kind == .zstack)
    #expect(ring.modifiers?.frame == FrameSpec(width: 80, height: 80, alignment: "center"))
    #expect(ring.childNodes[0].shape?.stroke?.name == "quaternary")
    #expect(ring.childNodes[1].shape?.stroke?.name == "green")
    #expect(ring.childNodes[1].shape?.trimTo == 1)
    #expect(ring.childNodes[1].modifiers?.rotation == -90)
    #expect(ring.childNodes[2].childNodes[0].text == "100%")
    #expect(ring.childNodes[2].childNodes[0].modifiers?.font == FontSpec(style: "title2", weight: "bold"))

    let right = node.childNodes[1]
    #expect(right.childNodes[0].modifiers?.font == FontSpec(style: "title3", weight: "bold", design: "rounded"))
    let days = right.childNodes[1].childNodes
    #expect(days.count == 7)
    #expect(days.filter { $0.shape?.fill == StyleSpec(name: "green", opacity: 0.8) }.count == 3)
    #expect(days[6].shape?.fill == StyleSpec(name: "secondary", opacity: 0.2))
    #expect(days[0].modifiers?.frame?.height == 24)
    let button = right.childNodes[2]
    #expect(button.kind == .button)
    #expect(button.action?.id == "0")
    #expect(button.modifiers?.tint?.name == "green")
    #expect(button.childNodes[0].childNodes.map { $0.role ?? "" } == ["title", "icon"])
    let toggle = right.childNodes[3]
    #expect(toggle.action?.id == "1")
    #expect(toggle.action?.parameters == ["isCompleted": .bool(true)])
}

@Test func articleStatsWidgetFamilies() {
    let entry = StatEntry(value: 10_432, unit: "steps")
    let circular = evaluate(StatsView(entry: entry), .accessoryCircular)
    #expect(circular.kind == .gauge)
    #expect(circular.style == "accessoryCircular")
    #expect(circular.bounds == [0, 15_000])
    #expect(circular.modifiers?.containerBackground?.name == "clear")
    #expect(circular.childNodes.first { $0.role == "currentValueLabel" }?.text == "10.4")
    #expect(circular.childNodes.first { $0.role == "label" }?.symbol == "figure.walk")

    let rect = evaluate(StatsView(entry: entry), .accessoryRectangular)
    #expect(rect.style == "accessoryCircularCapacity")
    #expect(rect.modifiers?.tint?.name == "green")

    let small = evaluate(StatsView(entry: entry), .systemSmall)
    #expect(small.modifiers?.frame?.maxWidth == .infinity)
    #expect(small.modifiers?.frame?.alignment == "leading")
    #expect(small.modifiers?.containerBackground?.name == "fill.tertiary")
    let value = small.childNodes[0]
    #expect(value.text == "10,432")
    #expect(value.modifiers?.font?.style == "title")
    #expect(value.modifiers?.weight == "bold")
    #expect(value.modifiers?.accessibilityLabel == "10432 steps")
    #expect(small.childNodes[2].kind == .link)

    let large = evaluate(StatsView(entry: entry), .systemLarge)
    #expect(large.childNodes[0].modifiers?.font?.style == "largeTitle")
}
