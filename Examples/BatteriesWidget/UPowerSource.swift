import FoundationEssentials
import SessionBus

/// UPower's view (`org.freedesktop.UPower` on the system bus, through the worker's proxy —
/// the bundle declares it in `systemBusNames`): `EnumerateDevices`, then each device's
/// `org.freedesktop.UPower.Device` properties. It sees what the kernel's folders do and more:
/// Bluetooth headsets and mice (BlueZ's battery), UPSes. Nil when UPower cannot be reached
/// (no system bus, UPower not running): the widget then reads `/sys` (`SysfsPowerSupply`).
/// Stateless (the SDK's shared connection); any thread.
struct UPowerSource: PowerSource {
    static let name = "org.freedesktop.UPower"
    let sourceName = "UPower"

    func devices() -> [PowerDevice]? {
        let bus: SessionBus
        let paths: [String]
        do {
            bus = try SessionBus.system()
            paths = try bus.call(destination: Self.name, path: "/org/freedesktop/UPower", interface: Self.name,
                                 member: "EnumerateDevices").first?.arrayValue?.compactMap(\.stringValue) ?? []
        } catch {
            return nil
        }
        var all: [(key: String, device: PowerDevice)] = []
        for path in paths {
            // A device that went away between the two calls is simply not there.
            guard let p = try? bus.properties(interface: Self.name + ".Device", destination: Self.name, path: path) else { continue }
            switch Self.device(path: path, p) {
            case .device(let d): all.append((p["NativePath"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 } ?? path, d))
            case .notABattery: break
            case .garbage(let reason): SysfsPowerSupply.log("batteries: UPower \(path) skipped: \(reason)")
            }
        }
        let sorted = all.sorted { $0.key < $1.key }.map(\.device)
        return sorted.filter(\.isSystem) + sorted.filter { !$0.isSystem }
    }

    /// The device UPower describes at `path` with properties `p`. Pure.
    static func device(path: String, _ p: [String: BusValue]) -> SysfsPowerSupply.Reading {
        guard let type = p["Type"]?.intValue, let kind = kind(type: type, powerSupply: p["PowerSupply"]?.boolValue ?? false) else {
            return .notABattery
        }
        if p["IsPresent"]?.boolValue == false { return .notABattery }
        guard let percent = p["Percentage"]?.doubleValue else { return .garbage("no Percentage") }
        guard percent.isFinite, percent >= 0, percent <= 100 else { return .garbage("Percentage \(percent) is not a percentage") }
        let state: PowerDevice.State = switch p["State"]?.intValue {
        case 1: .charging
        case 2, 3: .discharging  // 3: empty
        case 4: .full
        case 5, 6: .notCharging  // pending charge, pending discharge
        default: percent >= 100 ? .full : .unknown
        }
        let seconds = state == .charging ? p["TimeToFull"]?.intValue : state == .discharging ? p["TimeToEmpty"]?.intValue : nil
        let model = p["Model"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
        return .device(PowerDevice(id: path, name: kind == .laptop ? "Laptop" : model ?? kind.displayName, kind: kind, percent: percent,
                                   state: state, timeLeft: seconds.flatMap { $0 > 0 ? TimeInterval($0) : nil }))
    }

    /// The widget's kind for UPower's `Type` (`UpDeviceKind`): nil for what holds no battery
    /// (line power, unknown). A battery that powers the machine (`PowerSupply`) is the laptop's.
    static func kind(type: Int64, powerSupply: Bool) -> PowerDevice.Kind? {
        switch type {
        case 2: powerSupply ? .laptop : .other
        case 3: .ups
        case 5, 14: .mouse  // mouse, touchpad
        case 6: .keyboard
        case 8: .phone
        case 10: .tablet
        case 12: .gameController
        case 17, 19: .headphones  // headset, headphones
        case 18: .speaker
        case 4, 7, 9, 11, 13, 15, 16, 20, 21, 22, 23, 24, 25, 26, 27, 28: .other
        default: nil  // 0 unknown, 1 line power
        }
    }
}
