import CCairo

/// A decoded PNG as premultiplied ARGB pixels, and a tolerant comparison for picture goldens:
/// two pictures match when at most `maxDifferingPixels` pixels differ by more than
/// `threshold` (0…255) in any channel — an anti-aliasing change passes, a moved element fails.
/// A value: safe from any thread.
public struct PixelImage: Sendable {
    public var width: Int
    public var height: Int
    /// Row-major ARGB32 (Cairo's native layout), `width × height` entries.
    public var pixels: [UInt32]

    /// Decodes PNG bytes; nil when they are not a PNG Cairo can read.
    public static func decodePNG(_ bytes: [UInt8]) -> PixelImage? {
        let surface = Self.surface(fromPNG: bytes)
        guard let surface else { return nil }
        defer { cairo_surface_destroy(surface) }
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else { return nil }
        let w = Int(cairo_image_surface_get_width(surface)), h = Int(cairo_image_surface_get_height(surface))
        let stride = Int(cairo_image_surface_get_stride(surface))
        guard w > 0, h > 0, let data = cairo_image_surface_get_data(surface) else { return nil }
        var pixels = [UInt32](repeating: 0, count: w * h)
        let format = cairo_image_surface_get_format(surface)
        for y in 0..<h {
            let row = UnsafeRawPointer(data + y * stride)
            for x in 0..<w {
                if format == CAIRO_FORMAT_RGB24 || format == CAIRO_FORMAT_ARGB32 {
                    var p = row.loadUnaligned(fromByteOffset: x * 4, as: UInt32.self)
                    if format == CAIRO_FORMAT_RGB24 { p |= 0xFF00_0000 }
                    pixels[y * w + x] = p
                }
            }
        }
        return PixelImage(width: w, height: h, pixels: pixels)
    }

    /// A Cairo image surface of PNG `bytes` (the caller destroys it), or nil. Cairo allocates
    /// what the header declares: callers holding bytes from a plugin check the size first.
    static func surface(fromPNG bytes: [UInt8]) -> OpaquePointer? {
        final class Reader { let bytes: [UInt8]; var offset = 0; init(_ b: [UInt8]) { bytes = b } }
        let reader = Reader(bytes)
        let read: cairo_read_func_t = { closure, data, length in
            guard let closure, let data else { return CAIRO_STATUS_READ_ERROR }
            let r = Unmanaged<Reader>.fromOpaque(closure).takeUnretainedValue()
            let n = Int(length)
            guard r.offset + n <= r.bytes.count else { return CAIRO_STATUS_READ_ERROR }
            r.bytes.withUnsafeBufferPointer { src in
                data.update(from: src.baseAddress! + r.offset, count: n)
            }
            r.offset += n
            return CAIRO_STATUS_SUCCESS
        }
        return withExtendedLifetime(reader) {
            cairo_image_surface_create_from_png_stream(read, Unmanaged.passUnretained(reader).toOpaque())
        }
    }

    /// Pixels of `self` and `other` that differ by more than `threshold` in some channel
    /// (every pixel when the sizes differ).
    public func differingPixels(from other: PixelImage, threshold: Int) -> Int {
        guard width == other.width, height == other.height else { return max(pixels.count, other.pixels.count) }
        var count = 0
        for i in pixels.indices where pixels[i] != other.pixels[i] {
            let a = pixels[i], b = other.pixels[i]
            for shift in stride(from: 0, to: 32, by: 8) {
                let d = abs(Int((a >> UInt32(shift)) & 0xFF) - Int((b >> UInt32(shift)) & 0xFF))
                if d > threshold { count += 1; break }
            }
        }
        return count
    }
}
