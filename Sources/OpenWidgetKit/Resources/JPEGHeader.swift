/// What a JPEG file's markers say before any pixel is decoded: its size from the SOF marker,
/// whether it is progressive, and the EXIF orientation of its APP1 segment. Read in pure Swift
/// by whoever puts a JPEG in a view tree (the worker: `UIImage(data:)`, the asset-catalog
/// compiler) and checked again by the renderer before it decodes (libjpeg in `WidgetGraphics`).
///
/// Accepted: baseline and extended (SOF0, SOF1) and progressive (SOF2) Huffman-coded JPEGs of
/// 8-bit samples with 1 (grey) or 3 (YCbCr/RGB) components — what cameras, players' cover caches
/// and iOS asset catalogs hold. Refused, with a reason: 12-bit samples, CMYK/YCCK (4 components),
/// lossless, hierarchical and arithmetic-coded files. `width`/`height` are the pixels as shown:
/// for an EXIF orientation of 5…8 (a quarter turn) they are the SOF's swapped, as iOS shows them.
/// A value, pure; safe from any thread.
public struct JPEGHeader: Hashable, Sendable {
    /// The pixels as stored (the SOF marker's numbers of samples per line and of lines).
    public var storedWidth: Int
    public var storedHeight: Int
    /// EXIF orientation 1…8 (1, the default, when there is none or it is not understood).
    public var orientation: Int
    public var progressive: Bool

    /// Width and height as drawn (EXIF orientation applied).
    public var width: Int { orientation >= 5 ? storedHeight : storedWidth }
    public var height: Int { orientation >= 5 ? storedWidth : storedHeight }

    /// Why bytes are not a JPEG the renderer draws; its description is the log line's reason.
    public enum Refusal: Error, Equatable, CustomStringConvertible {
        /// No SOI marker: not a JPEG at all.
        case notJPEG
        /// A JPEG, but a kind this host does not draw (CMYK, 12-bit, lossless, arithmetic…).
        case unsupported(String)
        /// A JPEG whose markers are cut short or inconsistent.
        case malformed(String)

        public var description: String {
            switch self {
            case .notJPEG: "not a JPEG file"
            case .unsupported(let why): "a JPEG this host does not draw: \(why)"
            case .malformed(let why): "a damaged JPEG: \(why)"
            }
        }
    }

    /// Whether `bytes` start as a JPEG does (the SOI marker and a marker after it).
    public static func isJPEG<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Bool {
        Array(bytes.prefix(3)) == [0xFF, 0xD8, 0xFF]
    }

    /// Reads the markers of `bytes` up to the frame header (SOF); throws why it cannot be drawn.
    public static func read<Bytes: Collection<UInt8>>(_ bytes: Bytes) throws(Refusal) -> JPEGHeader {
        let b = Array(bytes)
        guard isJPEG(b) else { throw .notJPEG }
        var orientation = 1
        var i = 2
        while true {
            // Markers may be preceded by fill bytes 0xFF.
            guard i < b.count, b[i] == 0xFF else { throw .malformed("no marker at byte \(i)") }
            while i < b.count, b[i] == 0xFF { i += 1 }
            guard i < b.count else { throw .malformed("cut short before the frame header") }
            let marker = b[i]
            i += 1
            // Markers without a length: TEM and RST0…7.
            if marker == 0x01 || (0xD0...0xD7).contains(marker) { continue }
            guard marker != 0xD9, marker != 0xDA else { throw .malformed("no frame header (SOF) before the image data") }
            guard i + 2 <= b.count else { throw .malformed("cut short in a marker's length") }
            let length = Int(b[i]) << 8 | Int(b[i + 1])
            guard length >= 2, i + length <= b.count else { throw .malformed("a segment runs past the end of the file") }
            let segment = b[(i + 2)..<(i + length)]
            switch marker {
            case 0xC0, 0xC1, 0xC2:
                return try frame(Array(segment), progressive: marker == 0xC2, orientation: orientation)
            case 0xC3: throw .unsupported("lossless (SOF3)")
            case 0xC5, 0xC6, 0xC7: throw .unsupported("hierarchical (SOF\(marker - 0xC0))")
            case 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF: throw .unsupported("arithmetic coding (SOF\(marker - 0xC0))")
            case 0xE1:
                if let o = exifOrientation(Array(segment)) { orientation = o }
            default: break
            }
            i += length
        }
    }

    private static func frame(_ s: [UInt8], progressive: Bool, orientation: Int) throws(Refusal) -> JPEGHeader {
        guard s.count >= 6 else { throw .malformed("a frame header of \(s.count) bytes") }
        let precision = Int(s[0])
        let height = Int(s[1]) << 8 | Int(s[2]), width = Int(s[3]) << 8 | Int(s[4]), components = Int(s[5])
        guard precision == 8 else { throw .unsupported("\(precision)-bit samples (only 8-bit are drawn)") }
        guard components != 4 else { throw .unsupported("CMYK (4 components); save it as RGB") }
        guard components == 1 || components == 3 else { throw .unsupported("\(components) components") }
        guard s.count >= 6 + 3 * components else { throw .malformed("a frame header shorter than its components") }
        // A height of 0 (set later by a DNL marker) is legal JPEG but no decoder here sizes by it.
        guard width > 0, height > 0 else { throw .malformed("a frame of \(width)×\(height) pixels") }
        return JPEGHeader(storedWidth: width, storedHeight: height, orientation: orientation, progressive: progressive)
    }

    /// The orientation tag (0x0112) of an APP1 `Exif` segment's first IFD, when it is 1…8.
    static func exifOrientation(_ s: [UInt8]) -> Int? {
        guard s.count >= 14, s[0..<6] == [0x45, 0x78, 0x69, 0x66, 0, 0] else { return nil }
        let tiff = Array(s[6...])
        let little: Bool
        switch (tiff[0], tiff[1]) {
        case (0x49, 0x49): little = true
        case (0x4D, 0x4D): little = false
        default: return nil
        }
        func u16(_ at: Int) -> Int? {
            guard at >= 0, at + 2 <= tiff.count else { return nil }
            return little ? Int(tiff[at]) | Int(tiff[at + 1]) << 8 : Int(tiff[at]) << 8 | Int(tiff[at + 1])
        }
        func u32(_ at: Int) -> Int? {
            guard let a = u16(at), let b = u16(at + 2) else { return nil }
            return little ? a | b << 16 : a << 16 | b
        }
        guard u16(2) == 42, let ifd = u32(4), let count = u16(ifd) else { return nil }
        for n in 0..<count {
            let entry = ifd + 2 + 12 * n
            guard let tag = u16(entry) else { return nil }
            // Type 3 (SHORT), count 1: the value sits in the entry's first two bytes.
            if tag == 0x0112, u16(entry + 2) == 3, let value = u16(entry + 8) {
                return (1...8).contains(value) ? value : nil
            }
        }
        return nil
    }
}
