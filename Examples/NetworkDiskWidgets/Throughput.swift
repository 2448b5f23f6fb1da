import FoundationEssentials
import OpenWidgetKit
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Bytes per second one way and the other.
struct Throughput: Equatable, Sendable {
    var down: Double
    var up: Double
}

/// The counters of every interface at one instant.
struct CounterSample: Sendable {
    var date: Date
    var counters: [InterfaceCounters]
}

/// Rates from two counter samples: (bytes now − bytes then) / seconds between them, per
/// interface present in both. A counter that went back (the interface was reset, or a 32-bit
/// counter wrapped) gives no rate for that interface rather than a huge one. Pure.
enum ThroughputMath {
    static func rates(from earlier: CounterSample, to later: CounterSample) -> [String: Throughput] {
        let seconds = later.date.timeIntervalSince(earlier.date)
        guard seconds > 0 else { return [:] }
        var out: [String: Throughput] = [:]
        for now in later.counters {
            guard let then = earlier.counters.first(where: { $0.name == now.name }),
                  now.receivedBytes >= then.receivedBytes, now.sentBytes >= then.sentBytes else { continue }
            out[now.name] = Throughput(down: Double(now.receivedBytes - then.receivedBytes) / seconds,
                                       up: Double(now.sentBytes - then.sentBytes) / seconds)
        }
        return out
    }
}

/// Where the rate's earlier sample comes from. The worker keeps the previous reload's sample in
/// memory (`previous`) while it lives; the host stops a worker at rest between reloads
/// (WorkerRest), and a fresh worker has none: then, or when the kept sample is older than
/// `maximumAge` (a rate over many minutes says little about now), it takes two reads
/// `shortInterval` apart inside the call. The clock and the sleep are injected so the tests
/// run on virtual time. Thread-safe (a `Mutex`).
final class ThroughputMeter: Sendable {
    let now: @Sendable () -> Date
    let sleep: @Sendable (Double) -> Void
    let read: @Sendable () -> [InterfaceCounters]
    let shortInterval: Double
    let maximumAge: Double
    private let previous = Mutex<CounterSample?>(nil)

    init(now: @escaping @Sendable () -> Date = { Date() },
         sleep: @escaping @Sendable (Double) -> Void = { usleep(UInt32($0 * 1_000_000)) },
         read: @escaping @Sendable () -> [InterfaceCounters] = { NetworkCounters.read() },
         shortInterval: Double = 0.5, maximumAge: Double = 60) {
        self.now = now; self.sleep = sleep; self.read = read
        self.shortInterval = shortInterval; self.maximumAge = maximumAge
    }

    /// The rate of every interface since the previous usable sample, and the counters now.
    func measure() -> (rates: [String: Throughput], counters: [InterfaceCounters]) {
        var current = CounterSample(date: now(), counters: read())
        var earlier = previous.withLock { $0 }
        if let e = earlier, !(current.date.timeIntervalSince(e.date) >= shortInterval / 2
                              && current.date.timeIntervalSince(e.date) <= maximumAge) {
            earlier = nil
        }
        if earlier == nil {
            earlier = current
            sleep(shortInterval)
            current = CounterSample(date: now(), counters: read())
        }
        previous.withLock { $0 = current }
        return (ThroughputMath.rates(from: earlier!, to: current), current.counters)
    }

    static let shared = ThroughputMeter()
}

/// Byte counts as Apple's file-size style writes them: decimal units, "123 GB", "1.2 MB/s".
enum ByteText {
    static func size(_ bytes: Double) -> String {
        let units = ["bytes", "KB", "MB", "GB", "TB", "PB"]
        var value = bytes, unit = 0
        while value >= 1000 && unit < units.count - 1 { value /= 1000; unit += 1 }
        if unit == 0 { return "\(Int(value)) \(units[0])" }
        // As Apple's adaptive style: KB whole, MB one decimal, GB and up two; three significant
        // figures at most (1.46 TB, 12.3 GB, 123 GB), trailing zeros dropped.
        let decimals = unit == 1 ? 0 : unit == 2 ? (value < 99.95 ? 1 : 0) : (value < 9.995 ? 2 : value < 99.95 ? 1 : 0)
        let text = format(value, decimals: decimals)
        return text + " " + units[unit]
    }

    static func rate(_ bytesPerSecond: Double) -> String {
        bytesPerSecond < 1000 ? "\(Int(bytesPerSecond.rounded())) B/s" : size(bytesPerSecond) + "/s"
    }

    static func format(_ value: Double, decimals: Int) -> String {
        var scale = 1
        for _ in 0..<decimals { scale *= 10 }
        let scaled = Int((value * Double(scale)).rounded())
        let whole = scaled / scale, fraction = scaled % scale
        if fraction == 0 { return "\(whole)" }
        var digits = "\(fraction)"
        while digits.count < decimals { digits = "0" + digits }
        while digits.hasSuffix("0") { digits.removeLast() }
        return "\(whole).\(digits)"
    }
}
