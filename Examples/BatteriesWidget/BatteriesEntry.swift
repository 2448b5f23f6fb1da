import FoundationEssentials
import OpenWidgetKit

/// What one entry shows: the batteries at `date` (projected from the last read along the
/// present draw), the first being the main one, and where they were read (`source`: `UPower`,
/// `sysfs`, `sample`), which the large family says in its footnote.
struct BatteriesEntry: TimelineEntry {
    let date: Date
    let devices: [PowerDevice]
    let showsTimeLeft: Bool
    var source = "sample"

    var main: PowerDevice? { devices.first }

    /// The batteries `seconds` after they were read, each moved along its own rate: a battery
    /// that empties in `timeLeft` loses its charge linearly until then (and a charging one gains
    /// it until full). Without a known time left it stays as read.
    static func projected(_ devices: [PowerDevice], by seconds: TimeInterval) -> [PowerDevice] {
        devices.map { d in
            guard let left = d.timeLeft, left > 0, seconds > 0 else { return d }
            let remaining = max(0, left - seconds)
            let percent: Double = switch d.state {
            case .discharging: d.percent * remaining / left
            case .charging: 100 - (100 - d.percent) * remaining / left
            default: d.percent
            }
            return PowerDevice(id: d.id, name: d.name, kind: d.kind, percent: percent, state: d.state, timeLeft: remaining)
        }
    }

    /// Fixture-free sample for the gallery and placeholders: a laptop draining, a headset low, a mouse.
    static func sample(at date: Date) -> BatteriesEntry {
        BatteriesEntry(date: date, devices: [
            PowerDevice(id: "BAT0", name: "Laptop", kind: .laptop, percent: 82, state: .discharging, timeLeft: 105 * 60),
            PowerDevice(id: "headphones", name: "Headphones", kind: .headphones, percent: 15, state: .discharging, timeLeft: nil),
            PowerDevice(id: "mouse", name: "Mouse", kind: .mouse, percent: 40, state: .discharging, timeLeft: nil),
        ], showsTimeLeft: true)
    }
}

/// "1:45 left", "0:20 until full"; nil without a time left.
func timeLeftText(_ d: PowerDevice) -> String? {
    guard let t = d.timeLeft, t.isFinite, t >= 0, d.state == .charging || d.state == .discharging else { return nil }
    let minutes = Int((t / 60).rounded())
    let hm = "\(minutes / 60):\(minutes % 60 < 10 ? "0" : "")\(minutes % 60)"
    return d.state == .charging ? "\(hm) until full" : "\(hm) left"
}

/// "82%" (whole percent, rounded).
func percentText(_ d: PowerDevice) -> String { "\(Int(d.percent.rounded()))%" }
