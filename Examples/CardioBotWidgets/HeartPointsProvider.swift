import Dispatch
import FoundationEssentials
import OpenWidgetKit

final class HeartPointsProvider: TimelineProvider {
    public typealias Entry = HeartPointsViewModel

    let service = HealthService()

    // The article sends the service's value through a Combine publisher received on the main
    // queue; the port reads the service and completes on the main queue the same way.
    private var entry: Entry { service.today() }

    func placeholder(in with: Context) -> HeartPointsViewModel {
        HeartPointsViewModel(
            heartRates: [HeartRate(bpm: 130)],
            age: 29,
            goal: 20
        )
    }

    func getSnapshot(in context: Context, completion: @escaping @Sendable (HeartPointsViewModel) -> Void) {
        let entry = self.entry
        DispatchQueue.main.async { completion(entry) }
    }

    func getTimeline(in context: Context, completion: @escaping @Sendable (Timeline<HeartPointsViewModel>) -> Void) {
        let timeline = Timeline(entries: [entry], policy: .atEnd)
        DispatchQueue.main.async { completion(timeline) }
    }
}
