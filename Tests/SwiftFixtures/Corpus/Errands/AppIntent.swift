//
//  AppIntent.swift
//  Errands
//

import AppIntents
import WidgetKit

/// Ticks a task off (or back on) from the widget's checkbox.
struct CompleteTaskIntent: AppIntent {
    static var title: LocalizedStringResource = "Complete Task"
    static var isDiscoverable = false

    @Parameter(title: "Task ID")
    var taskID: String

    init() {}

    init(taskID: String) {
        self.taskID = taskID
    }

    func perform() async throws -> some IntentResult {
        TaskStore.shared.toggle(taskID)
        return .result()
    }
}
