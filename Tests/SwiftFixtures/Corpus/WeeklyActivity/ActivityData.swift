//
//  ActivityData.swift
//  WeeklyActivity
//

import Foundation
import SwiftUI

struct DayActivity: Identifiable {
    let date: Date
    let move: Double      // kcal
    let exercise: Double  // minutes
    let stand: Double     // hours

    var id: Date { date }

    static let moveGoal = 500.0
    static let exerciseGoal = 30.0
    static let standGoal = 12.0

    func value(_ metric: ActivityMetric) -> Double {
        switch metric {
        case .move: return move
        case .exercise: return exercise
        case .stand: return stand
        }
    }

    static func goal(_ metric: ActivityMetric) -> Double {
        switch metric {
        case .move: return moveGoal
        case .exercise: return exerciseGoal
        case .stand: return standGoal
        }
    }
}

extension ActivityMetric {
    var color: Color {
        switch self {
        case .move: return .red
        case .exercise: return .green
        case .stand: return .cyan
        }
    }

    var unit: String {
        switch self {
        case .move: return "kcal"
        case .exercise: return "min"
        case .stand: return "h"
        }
    }
}

enum ActivityHistory {
    /// The last seven days ending with `date`, as the app saved them.
    static func week(endingOn date: Date) -> [DayActivity] {
        let samples: [(Double, Double, Double)] = [
            (420, 22, 9), (610, 41, 12), (380, 18, 8), (530, 35, 11), (720, 58, 13), (250, 12, 6), (340, 21, 7),
        ]
        let today = Calendar.current.startOfDay(for: date)
        return samples.enumerated().map { index, sample in
            DayActivity(date: Calendar.current.date(byAdding: .day, value: index - 6, to: today)!,
                        move: sample.0, exercise: sample.1, stand: sample.2)
        }
    }
}
