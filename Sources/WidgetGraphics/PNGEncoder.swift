import CCairo

/// Encodes a Cairo ARGB32 image surface as PNG (8-bit RGBA, non-interlaced) with zlib at level
/// 1 and the Sub filter: for flat widget pictures about four times faster than Cairo's own
/// writer (libpng at the default level), for files about 20 % larger.
///
/// The filtered scanlines go to a scratch buffer the encoder keeps, and zlib writes straight
/// into the PNG's IDAT chunk: no buffer is zero-filled or copied per picture (the profile of a
/// PNG showed a fifth of its time in page faults of fresh buffers). Threading: one encoder per
/// thread (the scratch buffer is its state); `encode(_:)` is a pure function of the pixels.
final class PNGEncoder {
    private var scratch: [UInt8] = []

    init() {}

    /// A PNG of `surface`, encoded with a throwaway encoder.
    static func encode(_ surface: OpaquePointer) -> [UInt8]? { PNGEncoder().encode(surface) }

    func encode(_ surface: OpaquePointer) -> [UInt8]? {
        cairo_surface_flush(surface)
        let w = Int(cairo_image_surface_get_width(surface)), h = Int(cairo_image_surface_get_height(surface))
        let stride = Int(cairo_image_surface_get_stride(surface))
        guard w > 0, h > 0, cairo_image_surface_get_format(surface) == CAIRO_FORMAT_ARGB32,
              let data = cairo_image_surface_get_data(surface) else { return nil }
        // Filtered scanlines: a filter byte (1 = Sub), then RGBA, un-premultiplied.
        let rowBytes = 1 + w * 4
        let rawCount = rowBytes * h
        if scratch.count < rawCount { scratch = [UInt8](repeating: 0, count: rawCount) }
        scratch.withUnsafeMutableBufferPointer { out in
            for y in 0..<h {
                let row = UnsafeRawPointer(data + y * stride)
                let o = y * rowBytes
                out[o] = 1
                var pr = 0, pg = 0, pb = 0, pa = 0
                for x in 0..<w {
                    let px = row.loadUnaligned(fromByteOffset: x * 4, as: UInt32.self)
                    let a = Int(px >> 24)
                    var r = Int((px >> 16) & 0xFF), g = Int((px >> 8) & 0xFF), b = Int(px & 0xFF)
                    if a != 255 && a != 0 {
                        r = (r * 255 + a / 2) / a; g = (g * 255 + a / 2) / a; b = (b * 255 + a / 2) / a
                    } else if a == 0 {
                        r = 0; g = 0; b = 0
                    }
                    let i = o + 1 + x * 4
                    out[i] = UInt8(truncatingIfNeeded: r - pr)
                    out[i + 1] = UInt8(truncatingIfNeeded: g - pg)
                    out[i + 2] = UInt8(truncatingIfNeeded: b - pb)
                    out[i + 3] = UInt8(truncatingIfNeeded: a - pa)
                    pr = r; pg = g; pb = b; pa = a
                }
            }
        }
        // signature 8 + IHDR 25 + IDAT header 8 + data + IDAT CRC 4 + IEND 12.
        let bound = Int(compressBound(uLong(rawCount)))
        let idat = 8 + 25 + 8
        let png = [UInt8](unsafeUninitializedCapacity: idat + bound + 4 + 12) { buf, count in
            count = 0
            guard let base = buf.baseAddress else { return }
            func put(_ bytes: [UInt8]) { for b in bytes { base[count] = b; count += 1 } }
            func be32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)] }
            func crc(from start: Int) { put(be32(UInt32(truncatingIfNeeded: crc32(crc32(0, nil, 0), base + start, uInt(count - start))))) }
            put([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
            put(be32(13)); put(Array("IHDR".utf8)); put(be32(UInt32(w)) + be32(UInt32(h)) + [8, 6, 0, 0, 0])  // 8-bit RGBA
            crc(from: 12)
            let lengthAt = count
            put(be32(0)); put(Array("IDAT".utf8))
            var written = uLong(bound)
            let rc = scratch.withUnsafeBufferPointer { src in compress2(base + count, &written, src.baseAddress, uLong(rawCount), 1) }
            guard rc == Z_OK else { count = 0; return }
            for (k, b) in be32(UInt32(written)).enumerated() { base[lengthAt + k] = b }
            count += Int(written)
            crc(from: lengthAt + 4)
            put(be32(0)); put(Array("IEND".utf8))
            crc(from: count - 4)
        }
        return png.isEmpty ? nil : png
    }
}
