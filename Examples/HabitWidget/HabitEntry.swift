// Port of "SwiftUI Widget Tutorial" (seed 000): the habit tracker. Changes from the article are
// listed in docs/porting.md; the provider and views below are the article's code.
import FoundationEssentials
import OpenWidgetKit

/// The one app group the app, its scripts and this widget share.
/// (The article used two different group names for the provider and the intents.)
let habitAppGroup = "group.com.yourapp.shared"

// 1. Define the data model for each snapshot
struct HabitEntry: TimelineEntry {
    let date: Date
    let habitName: String
    let completedCount: Int
    let goalCount: Int
    let streakDays: Int
    /// Used by the article's Toggle (`entry.isCompleted`), which its HabitEntry did not declare.
    var isCompleted: Bool = false
}
