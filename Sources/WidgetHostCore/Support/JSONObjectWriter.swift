import FoundationEssentials

/// Writes one flat JSON object straight into bytes, keys in the order given (callers give them
/// sorted): the output path's encoder. `JSONEncoder` built a container tree and looked up
/// Codable metadata for every field of every update, and was the largest user-space cost of a
/// bar that changes every second (issue 6). Strings are escaped as `JSONEncoder` escapes them
/// (`"`, `\`, control characters; `/` and non-ASCII as they are). Value type, not shared.
struct JSONObjectWriter {
    private(set) var bytes: [UInt8] = [UInt8(ascii: "{")]
    private var first = true

    init(capacity: Int = 256) { bytes.reserveCapacity(capacity) }

    private mutating func key(_ k: StaticString) {
        if !first { bytes.append(UInt8(ascii: ",")) }
        first = false
        bytes.append(UInt8(ascii: "\""))
        k.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":")])
    }

    mutating func string(_ k: StaticString, _ v: String?) {
        guard let v else { return }
        key(k)
        appendString(v)
    }

    mutating func strings(_ k: StaticString, _ vs: [String]) {
        key(k)
        bytes.append(UInt8(ascii: "["))
        for (i, v) in vs.enumerated() {
            if i > 0 { bytes.append(UInt8(ascii: ",")) }
            appendString(v)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    mutating func int(_ k: StaticString, _ v: Int?) {
        guard let v else { return }
        key(k)
        bytes.append(contentsOf: String(v).utf8)
    }

    mutating func bool(_ k: StaticString, _ v: Bool?) {
        guard let v else { return }
        key(k)
        bytes.append(contentsOf: (v ? "true" : "false").utf8)
    }

    /// Integral values as integers (`1`, not `1.0`); non-finite ones (which JSON cannot hold) as null.
    mutating func double(_ k: StaticString, _ v: Double?) {
        guard let v else { return }
        key(k)
        if !v.isFinite {
            bytes.append(contentsOf: "null".utf8)
        } else if v == v.rounded(), abs(v) < 1e15 {
            bytes.append(contentsOf: String(Int(v)).utf8)
        } else {
            bytes.append(contentsOf: "\(v)".utf8)
        }
    }

    /// The finished object.
    mutating func finish() -> Data {
        bytes.append(UInt8(ascii: "}"))
        return Data(bytes)
    }

    private mutating func appendString(_ s: String) {
        bytes.append(UInt8(ascii: "\""))
        for b in s.utf8 {
            switch b {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x0a: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0d: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0x08: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
            case 0x0c: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
            case 0..<0x20:
                let hex: [UInt8] = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                                          hex[Int(b >> 4)], hex[Int(b & 0xf)]])
            default: bytes.append(b)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
