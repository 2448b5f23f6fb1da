import CCairo

/// Encodes a Cairo ARGB32 image surface as PNG (8-bit RGBA, non-interlaced) with zlib at level
/// 1 and the Sub filter: for flat widget pictures about four times faster than Cairo's own
/// writer (libpng at the default level), for files about 20 % larger. A pure function of the
/// pixels: safe from any thread.
enum PNGEncoder {
    static func encode(_ surface: OpaquePointer) -> [UInt8]? {
        cairo_surface_flush(surface)
        let w = Int(cairo_image_surface_get_width(surface)), h = Int(cairo_image_surface_get_height(surface))
        let stride = Int(cairo_image_surface_get_stride(surface))
        guard w > 0, h > 0, cairo_image_surface_get_format(surface) == CAIRO_FORMAT_ARGB32,
              let data = cairo_image_surface_get_data(surface) else { return nil }
        // Filtered scanlines: a filter byte (1 = Sub), then RGBA, un-premultiplied.
        let rowBytes = 1 + w * 4
        var raw = [UInt8](repeating: 0, count: rowBytes * h)
        raw.withUnsafeMutableBufferPointer { out in
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
        var bound = compressBound(uLong(raw.count))
        var compressed = [UInt8](repeating: 0, count: Int(bound))
        let rc = compressed.withUnsafeMutableBufferPointer { dst in
            raw.withUnsafeBufferPointer { src in compress2(dst.baseAddress, &bound, src.baseAddress, uLong(src.count), 1) }
        }
        guard rc == Z_OK else { return nil }
        compressed.removeLast(compressed.count - Int(bound))

        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        png.reserveCapacity(compressed.count + 64)
        func be32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)] }
        func chunk(_ type: String, _ body: [UInt8]) {
            let t = Array(type.utf8)
            png += be32(UInt32(body.count)) + t
            png += body
            var crc = crc32(0, nil, 0)
            crc = t.withUnsafeBufferPointer { crc32(crc, $0.baseAddress, uInt($0.count)) }
            crc = body.withUnsafeBufferPointer { crc32(crc, $0.baseAddress, uInt($0.count)) }
            png += be32(UInt32(truncatingIfNeeded: crc))
        }
        chunk("IHDR", be32(UInt32(w)) + be32(UInt32(h)) + [8, 6, 0, 0, 0])  // 8-bit RGBA
        chunk("IDAT", compressed)
        chunk("IEND", [])
        return png
    }
}
