import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// One battery: the laptop's own, or a peripheral's (a mouse, a keyboard, a headset…).
struct PowerDevice: Hashable, Identifiable {
    enum Kind: String {
        case laptop, mouse, keyboard, headphones, phone, gameController, ups, tablet, speaker, other

        /// The symbol Apple's Batteries widget draws inside the device's ring.
        var symbol: String {
            switch self {
            case .laptop: "laptopcomputer"
            case .mouse: "computermouse"
            case .keyboard: "keyboard"
            case .headphones: "headphones"
            case .phone: "iphone"
            case .gameController: "gamecontroller"
            case .ups: "powerplug"
            case .tablet: "ipad"
            case .speaker: "hifispeaker"
            case .other: "battery.100"
            }
        }
    }

    enum State: String {
        case charging, discharging, full, notCharging, unknown
    }

    /// The source's name for it (`BAT0`, `hid-…-battery`): stable between reads.
    let id: String
    let name: String
    let kind: Kind
    /// 0...100.
    let percent: Double
    let state: State
    /// Seconds until empty (discharging) or full (charging), when the source knows.
    let timeLeft: TimeInterval?

    /// Whether it is one of the machine's own batteries (not a peripheral's).
    var isSystem: Bool { kind == .laptop }
    /// Apple draws a battery at 20 % or less that is not charging in red.
    var isLow: Bool { percent <= 20 && state != .charging }
}

/// Where the widget's batteries come from (`UPowerSource`, else `SysfsPowerSupply`).
/// Implementations are pure reads; any thread.
protocol PowerSource {
    /// What the entry says it read from (`UPower`, `sysfs`).
    var sourceName: String { get }
    /// Every battery present now, the machine's own first; nil when the source cannot be
    /// reached (the next one is asked). A device whose data cannot be understood is left out
    /// (and said once on stderr), never shown with made-up values.
    func devices() -> [PowerDevice]?
}

/// The kernel's view: `/sys/class/power_supply/*` with `type` `Battery` (laptops' `BAT*`, and
/// HID batteries of mice, keyboards and headsets with `scope` `Device`). Readable inside the
/// worker's sandbox (`/sys/class` and `/sys/devices` are bound read-only, docs/limits.md).
/// `WIDGETHOST_BATTERIES_POWER_SUPPLY` names another folder of the same shape (the tests'
/// fixture trees). Stateless; any thread.
struct SysfsPowerSupply: PowerSource {
    let root: String
    let sourceName = "sysfs"

    init(root: String? = nil) {
        self.root = root ?? getenv("WIDGETHOST_BATTERIES_POWER_SUPPLY").map { String(cString: $0) } ?? "/sys/class/power_supply"
    }

    func devices() -> [PowerDevice]? {
        let all = Self.entries(of: root).compactMap { name -> PowerDevice? in
            let attributes = Attributes(directory: root + "/" + name)
            switch Self.device(named: name, attributes) {
            case .device(let device): return device
            case .notABattery: return nil
            case .garbage(let reason):
                Self.log("batteries: \(root)/\(name) skipped: \(reason)")
                return nil
            }
        }
        return all.filter(\.isSystem) + all.filter { !$0.isSystem }
    }

    /// What a power_supply folder holds.
    enum Reading {
        case device(PowerDevice)
        /// Mains, a USB port, an absent battery: nothing to show, nothing to say.
        case notABattery
        /// A battery whose files make no sense: left out, with the reason.
        case garbage(String)
    }

    /// The device a power_supply folder describes. Pure: `attributes` is the folder's files.
    static func device(named name: String, _ a: Attributes) -> Reading {
        guard a["type"] == "Battery" else { return .notABattery }
        if a["present"] == "0" { return .notABattery }
        let isPeripheral = a["scope"] == "Device"

        let percent: Double
        if let raw = a["capacity"] {
            guard let value = Double(raw), value >= 0, value <= 100 else { return .garbage("capacity \"\(raw.prefix(40))\" is not a percentage") }
            percent = value
        } else if let now = a.number("energy_now") ?? a.number("charge_now"),
                  let full = a.number("energy_full") ?? a.number("charge_full"), full > 0 {
            percent = min(100, max(0, now / full * 100))
        } else {
            return .garbage("no capacity, energy_now or charge_now")
        }

        let state: PowerDevice.State = switch a["status"] {
        case "Charging": .charging
        case "Discharging": .discharging
        case "Full": .full
        case "Not charging": .notCharging
        default: percent >= 100 ? .full : .unknown
        }

        let model = [a["manufacturer"], a["model_name"]].compactMap { $0 }.filter { !$0.isEmpty }
        let kind: PowerDevice.Kind = isPeripheral ? Self.kind(of: (model + [name]).joined(separator: " ")) : .laptop
        let label = isPeripheral ? (a["model_name"].flatMap { $0.isEmpty ? nil : $0 } ?? kind.displayName) : "Laptop"
        return .device(PowerDevice(id: name, name: label, kind: kind, percent: percent, state: state,
                                    timeLeft: timeLeft(state: state, a)))
    }

    /// Time to empty or to full: the kernel's own estimate when it gives one, else the charge
    /// over the present draw (energy in µWh over power in µW, or charge in µAh over current in µA).
    static func timeLeft(state: PowerDevice.State, _ a: Attributes) -> TimeInterval? {
        switch state {
        case .discharging:
            if let t = a.number("time_to_empty_now"), t > 0 { return t }
            if let e = a.number("energy_now"), let p = a.number("power_now"), p > 0 { return e / p * 3600 }
            if let c = a.number("charge_now"), let i = a.number("current_now"), i > 0 { return c / i * 3600 }
        case .charging:
            if let t = a.number("time_to_full_now"), t > 0 { return t }
            if let e = a.number("energy_now"), let f = a.number("energy_full"), let p = a.number("power_now"), p > 0, f > e { return (f - e) / p * 3600 }
            if let c = a.number("charge_now"), let f = a.number("charge_full"), let i = a.number("current_now"), i > 0, f > c { return (f - c) / i * 3600 }
        default: break
        }
        return nil
    }

    /// A peripheral's kind from its names (the kernel does not say what a HID battery is in).
    static func kind(of names: String) -> PowerDevice.Kind {
        let s = names.lowercased()
        func any(_ words: [String]) -> Bool { words.contains { s.contains($0) } }
        if any(["mouse", "trackball", "trackpad", "mx master", "mx anywhere"]) { return .mouse }
        if any(["keyboard", "kbd", "mx keys"]) { return .keyboard }
        if any(["headset", "headphone", "buds", "airpods", "earphone"]) { return .headphones }
        if any(["controller", "gamepad", "dualsense", "dualshock", "joy-con", "xbox"]) { return .gameController }
        if any(["phone"]) { return .phone }
        return .other
    }

    /// The files of one power_supply folder, trimmed; a missing or unreadable file is nil.
    struct Attributes {
        let directory: String

        subscript(_ file: String) -> String? {
            guard let raw = read(directory + "/" + file) else { return nil }
            let trimmed = raw.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed()
            return trimmed.isEmpty ? nil : String(trimmed)
        }

        func number(_ file: String) -> Double? { self[file].flatMap(Double.init) }

        private func read(_ path: String) -> String? {
            let fd = open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { return nil }
            defer { close(fd) }
            var buf = [UInt8](repeating: 0, count: 256)
            let n = Glibc.read(fd, &buf, buf.count)
            return n > 0 ? String(decoding: buf[0..<n], as: UTF8.self) : nil
        }
    }

    static func entries(of directory: String) -> [String] {
        guard let dir = opendir(directory) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let e = readdir(dir) {
            let name = withUnsafeBytes(of: e.pointee.d_name) { String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self) }
            if !name.hasPrefix(".") { names.append(name) }
        }
        return names.sorted()
    }

    static func log(_ line: String) {
        fputs(line + "\n", stderr)
        fflush(stderr)
    }
}

extension PowerDevice.Kind {
    var displayName: String {
        switch self {
        case .laptop: "Laptop"
        case .mouse: "Mouse"
        case .keyboard: "Keyboard"
        case .headphones: "Headphones"
        case .phone: "Phone"
        case .gameController: "Controller"
        case .ups: "UPS"
        case .tablet: "Tablet"
        case .speaker: "Speaker"
        case .other: "Battery"
        }
    }
}
