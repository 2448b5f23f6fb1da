import FoundationEssentials

/// Framing of the worker pipe protocol: each message is a 4-byte big-endian length followed by
/// that many bytes of JSON (`WireRequest` host → worker, `WireResponse` worker → host).
public enum Framing {
    /// Frames above this size are refused by default (a plugin's response larger than this is
    /// an error, not an allocation).
    public static let defaultMaxFrame = 64 << 20

    public static func frame(_ payload: Data) -> Data {
        var out = Data(capacity: payload.count + 4)
        let n = UInt32(payload.count)
        out.append(contentsOf: [UInt8(n >> 24), UInt8((n >> 16) & 0xff), UInt8((n >> 8) & 0xff), UInt8(n & 0xff)])
        out.append(payload)
        return out
    }
}

/// Incremental decoder of length-prefixed frames. Not thread-safe: one reader owns it.
public struct FrameDecoder {
    public struct Oversized: Error, CustomStringConvertible {
        public let length: Int, limit: Int
        public var description: String { "frame of \(length) bytes exceeds the limit of \(limit) bytes" }
    }

    private var buffer = [UInt8]()
    private var start = 0
    public let maxFrame: Int

    public init(maxFrame: Int = Framing.defaultMaxFrame) { self.maxFrame = maxFrame }

    /// Bytes buffered but not yet part of a complete frame.
    public var pendingByteCount: Int { buffer.count - start }

    /// Appends bytes and returns every frame completed by them, in order.
    public mutating func append<S: Sequence>(_ bytes: S) throws -> [Data] where S.Element == UInt8 {
        buffer.append(contentsOf: bytes)
        var frames: [Data] = []
        while buffer.count - start >= 4 {
            let n = Int(buffer[start]) << 24 | Int(buffer[start + 1]) << 16 | Int(buffer[start + 2]) << 8 | Int(buffer[start + 3])
            if n > maxFrame { throw Oversized(length: n, limit: maxFrame) }
            guard buffer.count - start - 4 >= n else { break }
            frames.append(Data(buffer[(start + 4)..<(start + 4 + n)]))
            start += 4 + n
        }
        if start > 0 && (start == buffer.count || start > 1 << 16) {
            buffer.removeFirst(start)
            start = 0
        }
        return frames
    }
}
