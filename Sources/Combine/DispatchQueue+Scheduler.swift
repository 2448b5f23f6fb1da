import Dispatch
import OpenCombine

// `DispatchQueue` is a `Scheduler`, as in Apple's Combine, so a provider's
// `.receive(on: DispatchQueue.main)` and `.debounce(for: .seconds(1), scheduler: DispatchQueue.main)`
// compile as written. Declared here, unconditionally, rather than taken from OpenCombineDispatch:
// that module declares it only `#if !canImport(Combine)`, and this module *is* `Combine`, so the
// conformance vanished whenever OpenCombineDispatch was recompiled after this module existed
// (issue 22). Nothing here may depend on what else happens to be importable.
//
// Threading: as Combine's: every action runs on the queue, never on the caller's thread.

extension DispatchQueue: @retroactive Scheduler {
    /// A point in time on the queue's clock (`DispatchTime`, monotonic, in nanoseconds).
    public struct SchedulerTimeType: Strideable, Codable, Hashable, Sendable {
        public var dispatchTime: DispatchTime

        public init(_ time: DispatchTime) { dispatchTime = time }

        public func distance(to other: SchedulerTimeType) -> Stride {
            Stride(nanoseconds: Int(bitPattern: UInt(other.dispatchTime.uptimeNanoseconds &- dispatchTime.uptimeNanoseconds)))
        }

        public func advanced(by stride: Stride) -> SchedulerTimeType {
            SchedulerTimeType(dispatchTime + .nanoseconds(stride.magnitude))  // Dispatch clamps at both ends
        }

        public static func == (lhs: SchedulerTimeType, rhs: SchedulerTimeType) -> Bool {
            lhs.dispatchTime.uptimeNanoseconds == rhs.dispatchTime.uptimeNanoseconds
        }

        public func hash(into hasher: inout Hasher) { hasher.combine(dispatchTime.uptimeNanoseconds) }

        public init(from decoder: any Decoder) throws {
            self.init(DispatchTime(uptimeNanoseconds: try decoder.singleValueContainer().decode(UInt64.self)))
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(dispatchTime.uptimeNanoseconds)
        }

        /// A signed interval in nanoseconds. Literals are seconds (`0.5`, `2`), as in Apple's Combine.
        public struct Stride: SchedulerTimeIntervalConvertible, Comparable, SignedNumeric, ExpressibleByFloatLiteral,
                              Hashable, Codable, Sendable {
            /// The interval in nanoseconds (negative for an interval back in time), as Apple's `magnitude`.
            public var magnitude: Int

            public init(nanoseconds: Int) { magnitude = nanoseconds }

            public init(_ timeInterval: DispatchTimeInterval) {
                switch timeInterval {
                case .seconds(let s): self.init(nanoseconds: s.multipliedReportingOverflow(by: 1_000_000_000).partialValue)
                case .milliseconds(let ms): self.init(nanoseconds: ms.multipliedReportingOverflow(by: 1_000_000).partialValue)
                case .microseconds(let us): self.init(nanoseconds: us.multipliedReportingOverflow(by: 1_000).partialValue)
                case .nanoseconds(let ns): self.init(nanoseconds: ns)
                case .never: self.init(nanoseconds: .max)
                @unknown default: self.init(nanoseconds: .max)
                }
            }

            public var timeInterval: DispatchTimeInterval { .nanoseconds(magnitude) }

            public init(floatLiteral seconds: Double) { self = .seconds(seconds) }
            public init(integerLiteral seconds: Int) { self = .seconds(seconds) }

            public init?<Source: BinaryInteger>(exactly source: Source) {
                guard let seconds = Int(exactly: source) else { return nil }
                self = .seconds(seconds)
            }

            public static func seconds(_ s: Int) -> Stride { Stride(.seconds(s)) }
            public static func seconds(_ s: Double) -> Stride {
                let nanoseconds = (s * 1_000_000_000).rounded()
                return Stride(nanoseconds: nanoseconds >= Double(Int.max) ? .max : nanoseconds <= Double(Int.min) ? .min : Int(nanoseconds))
            }
            public static func milliseconds(_ ms: Int) -> Stride { Stride(.milliseconds(ms)) }
            public static func microseconds(_ us: Int) -> Stride { Stride(.microseconds(us)) }
            public static func nanoseconds(_ ns: Int) -> Stride { Stride(nanoseconds: ns) }

            public static func < (lhs: Stride, rhs: Stride) -> Bool { lhs.magnitude < rhs.magnitude }
            public static func + (lhs: Stride, rhs: Stride) -> Stride { Stride(nanoseconds: lhs.magnitude + rhs.magnitude) }
            public static func - (lhs: Stride, rhs: Stride) -> Stride { Stride(nanoseconds: lhs.magnitude - rhs.magnitude) }
            public static func * (lhs: Stride, rhs: Stride) -> Stride { Stride(nanoseconds: lhs.magnitude * rhs.magnitude) }
            public static func += (lhs: inout Stride, rhs: Stride) { lhs = lhs + rhs }
            public static func -= (lhs: inout Stride, rhs: Stride) { lhs = lhs - rhs }
            public static func *= (lhs: inout Stride, rhs: Stride) { lhs = lhs * rhs }
        }
    }

    /// What `DispatchQueue.async` takes besides the work.
    public struct SchedulerOptions {
        public var qos: DispatchQoS
        public var flags: DispatchWorkItemFlags
        public var group: DispatchGroup?

        public init(qos: DispatchQoS = .unspecified, flags: DispatchWorkItemFlags = [], group: DispatchGroup? = nil) {
            self.qos = qos
            self.flags = flags
            self.group = group
        }
    }

    public var minimumTolerance: SchedulerTimeType.Stride { .nanoseconds(0) }

    public var now: SchedulerTimeType { SchedulerTimeType(.now()) }

    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        let work = SchedulerAction(action)
        let options = options ?? SchedulerOptions()
        async(group: options.group, qos: options.qos, flags: options.flags) { work.run() }
    }

    public func schedule(after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride,
                         options: SchedulerOptions?, _ action: @escaping () -> Void) {
        let work = SchedulerAction(action)
        let options = options ?? SchedulerOptions()
        asyncAfter(deadline: date.dispatchTime, qos: options.qos, flags: options.flags) { work.run() }
    }

    public func schedule(after date: SchedulerTimeType, interval: SchedulerTimeType.Stride,
                         tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
                         _ action: @escaping () -> Void) -> any Cancellable {
        let work = SchedulerAction(action)
        let timer = DispatchSource.makeTimerSource(queue: self)
        timer.schedule(deadline: date.dispatchTime, repeating: interval.timeInterval,
                       leeway: .nanoseconds(max(0, tolerance.magnitude)))
        timer.setEventHandler { work.run() }
        timer.activate()
        return AnyCancellable { timer.cancel() }
    }
}

/// A scheduled action carried to the queue. Combine's `Scheduler` takes plain closures, Dispatch
/// wants `@Sendable` ones; the scheduler contract is that the action runs on the queue alone, so
/// the box is handed over, never shared.
private struct SchedulerAction: @unchecked Sendable {
    let run: () -> Void
    init(_ run: @escaping () -> Void) { self.run = run }
}
