import Combine
import FoundationEssentials
import OpenWidgetKit

final class HeartPointsProvider: TimelineProvider {
    public typealias Entry = HeartPointsViewModel

    let service = HealthService()
    var snapshotCancellable: AnyCancellable?
    var timelineCancellable: AnyCancellable?

    private var entryPublisher: AnyPublisher<Entry, Never> {
        Just(service.today()).eraseToAnyPublisher()
    }

    func placeholder(in with: Context) -> HeartPointsViewModel {
        HeartPointsViewModel(
            heartRates: [HeartRate(bpm: 130)],
            age: 29,
            goal: 20
        )
    }

    func getSnapshot(in context: Context, completion: @escaping (HeartPointsViewModel) -> Void) {
        snapshotCancellable = entryPublisher
            .receive(on: DispatchQueue.main)
            .sink(receiveValue: completion)
    }

    func getTimeline(in context: Context, completion: @escaping (Timeline<HeartPointsViewModel>) -> Void) {
        timelineCancellable = entryPublisher
            .map { Timeline(entries: [$0], policy: .atEnd) }
            .receive(on: DispatchQueue.main)
            .sink(receiveValue: completion)
    }
}
