import FoundationEssentials
import OpenWidgetKit

/// One device's ring, as Apple's Batteries widget draws it: the charge as a green arc (red at
/// 20 % or less and not charging) around the device's symbol, a bolt when it charges.
struct DeviceRing: View {
    let device: PowerDevice?
    var symbolFont: Font = .title3

    var body: some View {
        if let device {
            Gauge(value: device.percent, in: 0...100) {
                Image(systemName: device.kind.symbol).font(symbolFont)
            }
            .gaugeStyle(.accessoryCircularCapacity)
            .tint(device.isLow ? Color.red : Color.green)
            .overlay(alignment: .topTrailing) {
                if device.state == .charging {
                    Image(systemName: "bolt.fill").font(.caption2).foregroundStyle(.green)
                }
            }
        } else {
            // An empty place, as Apple keeps the grid's shape with fewer devices.
            Gauge(value: 0, in: 0...100) { EmptyView() }
                .gaugeStyle(.accessoryCircularCapacity)
                .tint(Color.secondary)
                .opacity(0.4)
        }
    }
}

/// "82%", red when low, with the bolt of a charging device.
struct PercentLabel: View {
    let device: PowerDevice
    var font: Font = .caption

    var body: some View {
        Text(percentText(device))
            .font(font.monospacedDigit())
            .foregroundStyle(device.isLow ? Color.red : Color.primary)
    }
}

/// Every family of the widget. Layout only: the entry holds what to show.
struct BatteriesWidgetView: View {
    @Environment(\.widgetFamily) var family
    let entry: BatteriesEntry

    var body: some View {
        if let main = entry.main {
            content(main)
        } else {
            noBatteries
        }
    }

    @ViewBuilder private func content(_ main: PowerDevice) -> some View {
        switch family {
        case .systemSmall: small(main)
        case .systemMedium: medium
        case .systemLarge: large
        case .accessoryCircular: DeviceRing(device: main)
        case .accessoryRectangular: rectangular(main)
        default: inline(main)
        }
    }

    /// One device: its ring big and its charge under it; more: a 2 × 2 grid of rings.
    @ViewBuilder private func small(_ main: PowerDevice) -> some View {
        if entry.devices.count == 1 {
            VStack(alignment: .leading, spacing: 6) {
                DeviceRing(device: main, symbolFont: .title).frame(width: 72, height: 72)
                Spacer(minLength: 0)
                PercentLabel(device: main, font: .title)
                if entry.showsTimeLeft, let left = timeLeftText(main) {
                    Text(left).font(.caption).foregroundStyle(.secondary)
                }
            }
            .frame(maxWidth: .infinity, alignment: .leading)
        } else {
            Grid(horizontalSpacing: 12, verticalSpacing: 12) {
                GridRow {
                    DeviceRing(device: slot(0))
                    DeviceRing(device: slot(1))
                }
                GridRow {
                    DeviceRing(device: slot(2))
                    DeviceRing(device: slot(3))
                }
            }
        }
    }

    /// Four rings in a row, each with its charge under it.
    private var medium: some View {
        HStack(spacing: 8) {
            ForEach(0..<4, id: \.self) { i in
                VStack(spacing: 8) {
                    DeviceRing(device: slot(i)).frame(width: 58, height: 58)
                    if let d = slot(i) { PercentLabel(device: d, font: .subheadline) } else { Text(" ").font(.subheadline) }
                }
                .frame(maxWidth: .infinity)
            }
        }
    }

    /// A row per device: symbol, name, charge, and a bar under it; the time left of the main one;
    /// at the foot, quietly, where they were read.
    private var large: some View {
        VStack(alignment: .leading, spacing: 10) {
            ForEach(entry.devices.prefix(6)) { device in
                VStack(alignment: .leading, spacing: 4) {
                    HStack(spacing: 6) {
                        Image(systemName: device.kind.symbol).font(.subheadline).frame(width: 24)
                        Text(device.name).font(.subheadline).lineLimit(1)
                        if device.state == .charging { Image(systemName: "bolt.fill").font(.caption).foregroundStyle(.green) }
                        Spacer(minLength: 4)
                        PercentLabel(device: device, font: .subheadline)
                    }
                    Gauge(value: device.percent, in: 0...100) { EmptyView() }
                        .gaugeStyle(.linearCapacity)
                        .tint(device.isLow ? Color.red : Color.green)
                    if entry.showsTimeLeft, let left = timeLeftText(device) {
                        Text(left).font(.caption).foregroundStyle(.secondary)
                    }
                }
            }
            Spacer(minLength: 0)
            if let from = sourceText { Text(from).font(.caption2).foregroundStyle(.secondary) }
        }
    }

    /// "From UPower", "From the kernel" (`/sys/class/power_supply`); nil for the sample.
    private var sourceText: String? {
        switch entry.source {
        case "UPower": "From UPower"
        case "sysfs": "From the kernel"
        default: nil
        }
    }

    private func rectangular(_ main: PowerDevice) -> some View {
        VStack(alignment: .leading, spacing: 0) {
            Label(main.name, systemImage: main.state == .charging ? "bolt.fill" : main.kind.symbol)
                .font(.headline).widgetAccentable()
            Text(percentText(main)).font(.title2.monospacedDigit())
            if entry.showsTimeLeft, let left = timeLeftText(main) {
                Text(left).font(.caption)
            }
        }
        .frame(maxWidth: .infinity, alignment: .leading)
    }

    /// "82% · 1:45 left".
    private func inline(_ main: PowerDevice) -> some View {
        let left = entry.showsTimeLeft ? timeLeftText(main) : nil
        return Label(percentText(main) + (left.map { " · " + $0 } ?? ""),
                     systemImage: main.state == .charging ? "bolt.fill" : main.kind.symbol)
    }

    private var noBatteries: some View {
        Label("No Batteries", systemImage: "battery.0")
            .font(family == .accessoryInline ? .body : .caption)
            .foregroundStyle(.secondary)
    }

    private func slot(_ i: Int) -> PowerDevice? { i < entry.devices.count ? entry.devices[i] : nil }
}
