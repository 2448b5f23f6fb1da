import FoundationEssentials
import OpenWidgetKit

/// One worker connection's codec with memory: each distinct request is encoded once, and an
/// answer whose bytes equal the last answer to the same request is not decoded again.
///
/// A widget's timeline request is the same bytes every time, and its answer is often the same
/// too: a reload after a container change that touched another widget's file, the second reload
/// of a burst, a clock whose timeline starts at the same second. Decoding a 60-entry timeline
/// with `JSONDecoder` was the host's largest user-space cost on a busy bar (issue 6); comparing
/// bytes costs a `memcmp`. An answer that differs is read with the last one at hand: the
/// entries it shares with it are not decoded again (`WireCodec.readAnswer`: a clock whose
/// timeline starts a second later shares 59 of its 60). Only `timeline` answers are remembered (one per distinct request,
/// at most `capacity` requests); the memory is about one answer's bytes per widget instance.
/// Value type; owned by one connection on the loop thread.
public struct WireAnswerMemo {
    public let capacity: Int
    private var encoded: [WireRequest: Data] = [:]
    private var answers: [Data: WireAnswer] = [:]
    /// Answers decoded / answered from memory (for tests and benchmarks).
    public private(set) var decodes = 0
    public private(set) var hits = 0
    /// Entries of decoded answers taken from the last answer to the same request instead of
    /// decoded (`WireCodec.readAnswer`: a clock's timeline asked again a second later).
    public private(set) var takenEntries = 0

    /// Answers held.
    public var remembered: Int { answers.count }

    public init(capacity: Int = 4096) { self.capacity = capacity }

    /// The request's payload.
    public mutating func encode(_ request: WireRequest) throws -> Data {
        if let d = encoded[request] { return d }
        let d = try WireCodec.encode(request)
        guard request.op == .timeline else { return d }
        if encoded.count >= capacity { encoded = [:]; answers = [:] }
        encoded[request] = d
        return d
    }

    /// The response in `frame`, which answers `request`, whose payload was `payload`.
    public mutating func decode(_ frame: Data, answering request: WireRequest, payload: Data) throws -> WireResponse {
        guard request.op == .timeline else { return try WireCodec.decodeResponse(frame) }
        let last = answers[payload]
        if let last, last.bytes == frame {
            hits += 1
            return last.response
        }
        let answer = try WireCodec.readAnswer(frame, after: last)
        decodes += 1
        takenEntries += answer.takenEntries
        if answers.count >= capacity { answers = [:] }
        answers[payload] = answer
        return answer.response
    }
}
