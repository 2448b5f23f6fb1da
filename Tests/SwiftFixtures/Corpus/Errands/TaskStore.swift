//
//  TaskStore.swift
//  Errands
//

import Foundation

struct ErrandTask: Identifiable, Hashable {
    let id: String
    var title: String
    var list: String
    var due: Date?
    var isDone: Bool = false
    var isFlagged: Bool = false
}

final class TaskStore {
    static let shared = TaskStore()

    private(set) var tasks: [ErrandTask]

    private init() {
        let today = Calendar.current.startOfDay(for: Date())
        func at(_ hour: Int, dayOffset: Int = 0) -> Date {
            Calendar.current.date(byAdding: .hour, value: hour + dayOffset * 24, to: today)!
        }
        tasks = [
            ErrandTask(id: "milk", title: "Buy oat milk", list: "Groceries", due: at(9), isDone: true),
            ErrandTask(id: "parcel", title: "Return the parcel", list: "Errands", due: at(8), isFlagged: true),
            ErrandTask(id: "dentist", title: "Call the dentist", list: "Health", due: at(15)),
            ErrandTask(id: "plants", title: "Water the plants", list: "Home", due: at(18)),
            ErrandTask(id: "gift", title: "Birthday gift for Sam", list: "Errands", due: at(10, dayOffset: 1), isFlagged: true),
            ErrandTask(id: "tyres", title: "Check the bike tyres", list: "Home", due: nil),
            ErrandTask(id: "library", title: "Library books back", list: "Errands", due: at(17, dayOffset: 2)),
        ]
    }

    func toggle(_ id: String) {
        guard let index = tasks.firstIndex(where: { $0.id == id }) else { return }
        tasks[index].isDone.toggle()
    }

    /// Open tasks first, then the done ones, each by due date.
    var sorted: [ErrandTask] {
        tasks.sorted { a, b in
            if a.isDone != b.isDone { return !a.isDone }
            return (a.due ?? .distantFuture) < (b.due ?? .distantFuture)
        }
    }
}
