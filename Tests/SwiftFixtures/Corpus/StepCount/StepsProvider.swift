//
//  StepsProvider.swift
//  StepCount
//
//  The app writes its pedometer samples into the shared container; the widget reads a day's
//  total. Without the app, a plausible day: steps accumulate from 7 am on.
//

import WidgetKit
import Foundation

struct StepsEntry: TimelineEntry {
    let date: Date
    let steps: Int
    let goal: Int
    let distanceKm: Double

    var progress: Double { min(Double(steps) / Double(goal), 1) }
}

struct StepsProvider: AppIntentTimelineProvider {
    func placeholder(in context: Context) -> StepsEntry {
        StepsEntry(date: Date(), steps: 4_200, goal: 10_000, distanceKm: 3.1)
    }

    func snapshot(for configuration: StepGoalIntent, in context: Context) async -> StepsEntry {
        entry(at: Date(), goal: configuration.goal.rawValue)
    }

    func timeline(for configuration: StepGoalIntent, in context: Context) async -> Timeline<StepsEntry> {
        let now = Date()
        let entries = (0..<4).map { quarter in
            entry(at: now.addingTimeInterval(Double(quarter) * 15 * 60), goal: configuration.goal.rawValue)
        }
        return Timeline(entries: entries, policy: .atEnd)
    }

    /// About 700 steps an hour between 7:00 and 22:00.
    private func entry(at date: Date, goal: Int) -> StepsEntry {
        let start = Calendar.current.startOfDay(for: date)
        let hours = max(0, min(date.timeIntervalSince(start) / 3600 - 7, 15))
        let steps = Int(hours * 700)
        return StepsEntry(date: date, steps: steps, goal: goal, distanceKm: Double(steps) * 0.00072)
    }
}
