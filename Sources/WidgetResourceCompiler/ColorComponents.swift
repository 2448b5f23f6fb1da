import Foundation

/// A colour set's `components` as Xcode writes them, to sRGB `[r, g, b, a]` in 0…1.
///
/// Each component is a string or a number: `"0.820"` (floating point, 0…1), `"255"` (an 8-bit
/// integer, 0…255), `"0xD1"` (8-bit hexadecimal); alpha is always floating point. Colour spaces:
/// `srgb`, `extended-srgb` (clamped), `display-p3` (converted to sRGB), `gray-gamma-22` and
/// `extended-gray` (`white`), `extended-linear-srgb` (gamma-encoded). Pure.
enum ColorComponents {
    struct Problem: Error, CustomStringConvertible { var description: String }

    static func rgba(space: String?, components: [String: Any]) throws -> [Double] {
        func component(_ key: String, alpha: Bool = false) throws -> Double {
            guard let raw = components[key] else { throw Problem(description: "no \"\(key)\" component") }
            return try value(raw, alpha: alpha, name: key)
        }
        let alpha = components["alpha"] == nil ? 1 : try component("alpha", alpha: true)
        var rgb: [Double]
        switch space ?? "srgb" {
        case "gray-gamma-22", "extended-gray":
            let w = try component("white")
            rgb = [w, w, w]
        default:
            rgb = [try component("red"), try component("green"), try component("blue")]
        }
        switch space ?? "srgb" {
        case "display-p3": rgb = displayP3ToSRGB(rgb)
        case "extended-linear-srgb": rgb = rgb.map { encode(min(max($0, 0), 1)) }
        case "srgb", "extended-srgb", "gray-gamma-22", "extended-gray": break
        case let other: throw Problem(description: "colour space \"\(other)\" is not supported (srgb, display-p3, gray-gamma-22, extended-*)")
        }
        return (rgb + [alpha]).map { (min(max($0, 0), 1) * 10_000).rounded() / 10_000 }
    }

    /// One component: floating point as written, or an 8-bit integer / hex over 255.
    static func value(_ raw: Any, alpha: Bool, name: String) throws -> Double {
        if let n = raw as? NSNumber {
            let d = n.doubleValue
            if alpha || d.rounded() != d || d <= 1 { return d }
            return d / 255
        }
        guard let s = (raw as? String)?.trimmingCharacters(in: .whitespaces) else {
            throw Problem(description: "component \"\(name)\" is neither a number nor a string")
        }
        if s.lowercased().hasPrefix("0x"), let v = Int(s.dropFirst(2), radix: 16) { return Double(v) / 255 }
        if s.contains(".") || alpha, let d = Double(s) { return d }
        if let v = Int(s) { return Double(v) / 255 }
        throw Problem(description: "component \"\(name)\" = \"\(s)\" is not a number")
    }

    /// Display P3 (the sRGB transfer curve over P3 primaries, D65) to sRGB, clamped to its gamut.
    static func displayP3ToSRGB(_ p3: [Double]) -> [Double] {
        let l = p3.map(decode)
        let m: [[Double]] = [[1.2249401, -0.2249404, 0.0],
                             [-0.0420569, 1.0420571, 0.0],
                             [-0.0196376, -0.0786361, 1.0982735]]
        return m.map { row in encode(min(max(row[0] * l[0] + row[1] * l[1] + row[2] * l[2], 0), 1)) }
    }

    static func decode(_ v: Double) -> Double { v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4) }
    static func encode(_ v: Double) -> Double { v <= 0.0031308 ? v * 12.92 : 1.055 * pow(v, 1 / 2.4) - 0.055 }
}
