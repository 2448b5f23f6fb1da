//
//  Garden.swift
//  PlantCare
//

import Foundation

struct Plant: Identifiable {
    let name: String
    /// Water every this many days.
    let interval: Int
    var lastWatered: Date

    var id: String { name }

    func daysUntilWater(from now: Date) -> Int {
        let calendar = Calendar.current
        let due = calendar.date(byAdding: .day, value: interval, to: calendar.startOfDay(for: lastWatered))!
        return calendar.dateComponents([.day], from: calendar.startOfDay(for: now), to: due).day ?? 0
    }
}

final class Garden {
    static let shared = Garden()

    private(set) var plants: [Plant]

    private init() {
        let today = Calendar.current.startOfDay(for: Date())
        func daysAgo(_ days: Int) -> Date { Calendar.current.date(byAdding: .day, value: -days, to: today)! }
        plants = [
            Plant(name: "Monstera", interval: 7, lastWatered: daysAgo(7)),
            Plant(name: "Fern", interval: 3, lastWatered: daysAgo(2)),
            Plant(name: "Cactus", interval: 21, lastWatered: daysAgo(4)),
        ]
    }

    func water(_ name: String) {
        guard let index = plants.firstIndex(where: { $0.name == name }) else { return }
        plants[index].lastWatered = Date()
    }
}
