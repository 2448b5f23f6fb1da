import FoundationEssentials
import OpenWidgetKit

/// Whether a PNG in `out/` is a picture of the size the host draws for a widget, decided from
/// its header before anything decodes it: a decoder allocates width × height × 4 bytes for
/// whatever the header claims (30 000 × 30 000 is 3.6 GB), whatever the file's size.
///
/// A picture of family `f` at scale `s` is `f.nominalSize × s` pixels, rounded (as
/// `widgethost-render` draws it), for `s` in `PictureRegions.scales`; the regions file beside
/// it, when valid, says which scale. Pure; any thread.
public enum PictureFileCheck {
    /// Why a picture file is not shown.
    public enum Refusal: Error, Equatable, CustomStringConvertible {
        case notPNG
        case unexpectedSize(width: Int, height: Int, expected: String)

        public var description: String {
            switch self {
            case .notPNG: "not a PNG"
            case .unexpectedSize(let w, let h, let expected): "\(w) × \(h) pixels, not the widget's size (\(expected))"
            }
        }
    }

    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// The width and height in a PNG's header (its `IHDR`), nil when `bytes` does not start as a PNG.
    public static func pngSize(_ bytes: Data) -> (width: Int, height: Int)? {
        guard bytes.count >= 24 else { return nil }
        let b = [UInt8](bytes.prefix(24))
        guard Array(b[0..<8]) == signature, Array(b[12..<16]) == Array("IHDR".utf8) else { return nil }
        func be32(_ i: Int) -> Int { Int(b[i]) << 24 | Int(b[i + 1]) << 16 | Int(b[i + 2]) << 8 | Int(b[i + 3]) }
        return (be32(16), be32(20))
    }

    /// The pixel sizes a picture of `family` (any family when nil) may have; at `scale` only when
    /// it is one of `PictureRegions.scales`, else at each whole scale of them.
    public static func expectedSizes(family: WidgetFamily?, scale: Double?) -> [(width: Int, height: Int)] {
        let families: [WidgetFamily] = family.map { [$0] } ?? WidgetFamily.allCases
        let scales: [Double]
        if let scale { scales = PictureRegions.scales.contains(scale) ? [scale] : [] } else { scales = [1, 2, 3] }
        var sizes: [(width: Int, height: Int)] = []
        for f in families {
            for s in scales {
                sizes.append((Int((Double(f.nominalSize.width) * s).rounded()), Int((Double(f.nominalSize.height) * s).rounded())))
            }
        }
        return sizes
    }

    /// The most bytes a PNG of these sizes takes: its pixels stored uncompressed (RGBA, a
    /// filter byte per row), plus room for chunk and zlib overhead and small ancillary chunks.
    public static func maxBytes(for sizes: [(width: Int, height: Int)]) -> Int {
        let raw = sizes.map { $0.height * (1 + 4 * $0.width) }.max() ?? 0
        return raw + raw / 64 + 64 * 1024
    }

    /// The file-size limit for the picture of a widget of `family` (nil: not known yet).
    public static func maxBytes(family: WidgetFamily?, scale: Double?) -> Int {
        maxBytes(for: expectedSizes(family: family, scale: scale))
    }

    /// `bytes` is a PNG whose size is one `expectedSizes(family:scale:)` allows (within a pixel).
    public static func check(_ bytes: Data, family: WidgetFamily?, scale: Double?) -> Result<(width: Int, height: Int), Refusal> {
        guard let size = pngSize(bytes) else { return .failure(.notPNG) }
        let sizes = expectedSizes(family: family, scale: scale)
        guard sizes.contains(where: { abs($0.width - size.width) <= 1 && abs($0.height - size.height) <= 1 }) else {
            let shown = sizes.prefix(3).map { "\($0.width) × \($0.height)" }.joined(separator: ", ") + (sizes.count > 3 ? ", …" : "")
            return .failure(.unexpectedSize(width: size.width, height: size.height, expected: shown))
        }
        return .success(size)
    }
}
