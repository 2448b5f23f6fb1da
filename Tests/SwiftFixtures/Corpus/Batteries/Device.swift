//
//  Device.swift
//  Batteries
//

import Foundation

struct Device: Identifiable, Hashable {
    enum Kind: String {
        case phone, watch, earbuds, pencil

        var symbol: String {
            switch self {
            case .phone: return "iphone"
            case .watch: return "applewatch"
            case .earbuds: return "airpodspro"
            case .pencil: return "pencil"
            }
        }
    }

    let id: String
    let name: String
    let kind: Kind
    /// 0...1
    let level: Double
    let isCharging: Bool

    var isLow: Bool { level <= 0.2 && !isCharging }

    /// What the app last reported for the paired devices.
    static let paired: [Device] = [
        Device(id: "phone", name: "iPhone", kind: .phone, level: 0.82, isCharging: false),
        Device(id: "watch", name: "Watch", kind: .watch, level: 0.46, isCharging: true),
        Device(id: "buds", name: "AirPods Pro", kind: .earbuds, level: 0.15, isCharging: false),
        Device(id: "pencil", name: "Pencil", kind: .pencil, level: 1.0, isCharging: false),
    ]
}
