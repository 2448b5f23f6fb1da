//
//  WaterStore.swift
//  Hydration
//
//  Today's glasses, kept by the extension itself (as Apple's "Bring widgets to life" sample keeps
//  its model): the intents change it, the provider reads it.
//

import Foundation

final class WaterStore {
    static let shared = WaterStore()

    /// Eight glasses of 250 ml, the usual daily goal.
    let goal = 8
    private(set) var glasses = 3
    var remindersOn = true

    func log(glasses count: Int) {
        glasses = max(0, min(glasses + count, 20))
    }

    var millilitres: Int { glasses * 250 }
    var progress: Double { min(Double(glasses) / Double(goal), 1) }
}
