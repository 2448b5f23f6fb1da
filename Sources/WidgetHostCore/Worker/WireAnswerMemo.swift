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
/// timeline starts a second later shares 59 of its 60). Only `timeline` answers are remembered
/// (one per distinct request, at most `capacity` requests); the memory is about one answer's
/// bytes per widget instance. Each request's payload and last answer share one slot, found by
/// one lookup per encode and one per answer (hashing the payload's bytes twice per answer was
/// ~9 000 instructions, issue 16). Owned by one connection on the loop thread.
public struct WireAnswerMemo {
    public let capacity: Int
    /// A distinct timeline request's payload and the last answer to it (a class: the answer is
    /// stored without looking the request up again).
    private final class Slot {
        let payload: Data
        var answer: WireAnswer?
        init(_ payload: Data) { self.payload = payload }
    }
    private var slots: [WireRequest: Slot] = [:]
    /// Answers decoded / answered from memory (for tests and benchmarks).
    public private(set) var decodes = 0
    public private(set) var hits = 0
    /// Entries of decoded answers taken from the last answer to the same request instead of
    /// decoded (`WireCodec.readAnswer`: a clock's timeline asked again a second later).
    public private(set) var takenEntries = 0

    /// Answers held.
    public var remembered: Int { slots.values.lazy.filter { $0.answer != nil }.count }

    public init(capacity: Int = 4096) { self.capacity = capacity }

    /// The request's payload.
    public mutating func encode(_ request: WireRequest) -> Data {
        if let slot = slots[request] { return slot.payload }
        let d = WireCodec.encodeRequest(request)
        guard request.op == .timeline else { return d }
        if slots.count >= capacity { slots = [:] }
        slots[request] = Slot(d)
        return d
    }

    /// The response in `frame`, which answers `request` (sent as `encode` gave it). An answer
    /// to a request no longer held (the memory was emptied meanwhile) is decoded and not
    /// remembered.
    public mutating func decode(_ frame: Data, answering request: WireRequest) throws -> WireResponse {
        guard request.op == .timeline else { return try WireCodec.decodeResponse(frame) }
        let slot = slots[request]
        if let last = slot?.answer, last.bytes == frame {
            hits += 1
            return last.response
        }
        let answer = try WireCodec.readAnswer(frame, after: slot?.answer)
        decodes += 1
        takenEntries += answer.takenEntries
        slot?.answer = answer
        return answer.response
    }
}
