import CCairo
import CJPEG
import Glibc
import OpenWidgetKit
import Synchronization

/// A JPEG of a view tree decoded into a Cairo surface with libjpeg-turbo, its EXIF orientation
/// applied (as iOS draws a `UIImage` of a photo). The bytes come from a plugin: the header is
/// read first (`JPEGHeader`: 8-bit grey or YCbCr, baseline or progressive, size within
/// `WireValidation`'s limits), libjpeg must decode the whole file without an error or warning
/// (a truncated or corrupt file draws nothing — the painter draws its placeholder — and says
/// why on stderr once per image, which the daemon logs), and a progressive file may have at
/// most 100 scans. Threading: `surface` may be called from any thread (libjpeg keeps no state
/// between calls); the surface it returns belongs to the caller.
enum JPEGImage {
    /// The surface of `bytes` (the caller destroys it), `width` × `height` pixels as drawn; nil
    /// when they are not such a JPEG. `name` names the image in the log line.
    static func surface(fromJPEG bytes: [UInt8], width: Int, height: Int, name: String) -> OpaquePointer? {
        let header: JPEGHeader
        do { header = try JPEGHeader.read(bytes) } catch { return fail(name, error.description) }
        guard header.width == width, header.height == height else {
            return fail(name, "its frame header says \(header.width)×\(header.height) pixels, the tree \(width)×\(height)")
        }
        guard header.storedWidth * header.storedHeight <= WireValidation.maxImagePixels,
              header.storedWidth <= WireValidation.maxImageSide, header.storedHeight <= WireValidation.maxImageSide
        else { return fail(name, "larger than a widget image may be") }
        let stored = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(header.storedWidth), Int32(header.storedHeight))
        guard let stored, cairo_surface_status(stored) == CAIRO_STATUS_SUCCESS, let pixels = cairo_image_surface_get_data(stored) else {
            if let stored { cairo_surface_destroy(stored) }
            return fail(name, "no memory for \(header.storedWidth)×\(header.storedHeight) pixels")
        }
        cairo_surface_flush(stored)
        var message = [CChar](repeating: 0, count: 200)
        let status = bytes.withUnsafeBufferPointer { b in
            owk_jpeg_decode(b.baseAddress, UInt(b.count), pixels, Int32(header.storedWidth), Int32(header.storedHeight),
                            cairo_image_surface_get_stride(stored), &message, message.count)
        }
        cairo_surface_mark_dirty(stored)
        guard status == 0 else {
            cairo_surface_destroy(stored)
            let reason = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            return fail(name, "libjpeg: \(reason)")
        }
        guard header.orientation != 1 else { return stored }
        defer { cairo_surface_destroy(stored) }
        return oriented(stored, header)
    }

    /// `stored` turned as its EXIF orientation says, into a new surface (whole pixels: exact).
    private static func oriented(_ stored: OpaquePointer, _ h: JPEGHeader) -> OpaquePointer? {
        guard let out = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(h.width), Int32(h.height)) else { return nil }
        let cr = cairo_create(out)
        let sw = Double(h.storedWidth), sh = Double(h.storedHeight)
        // Stored pixel (x, y) lands at device (xx·x + xy·y + x0, yx·x + yy·y + y0).
        let (xx, yx, xy, yy, x0, y0): (Double, Double, Double, Double, Double, Double) = switch h.orientation {
        case 2: (-1, 0, 0, 1, sw, 0)          // mirrored left to right
        case 3: (-1, 0, 0, -1, sw, sh)        // turned 180°
        case 4: (1, 0, 0, -1, 0, sh)          // mirrored top to bottom
        case 5: (0, 1, 1, 0, 0, 0)            // transposed
        case 6: (0, 1, -1, 0, sh, 0)          // to be turned 90° clockwise (a phone held upright)
        case 7: (0, -1, -1, 0, sh, sw)        // transversed
        case 8: (0, -1, 1, 0, 0, sw)          // to be turned 90° anticlockwise
        default: (1, 0, 0, 1, 0, 0)
        }
        var m = cairo_matrix_t()
        cairo_matrix_init(&m, xx, yx, xy, yy, x0, y0)
        cairo_set_matrix(cr, &m)
        cairo_set_source_surface(cr, stored, 0, 0)
        cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_NEAREST)
        cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE)
        cairo_paint(cr)
        cairo_destroy(cr)
        return out
    }

    /// Images already reported (a widget redrawn every second must not log every second).
    private static let reported = Mutex<Set<String>>([])

    private static func fail(_ name: String, _ reason: String) -> OpaquePointer? {
        let first = reported.withLock { set in
            guard set.count < 256 else { return false }
            return set.insert(name + "\u{0}" + reason).inserted
        }
        if first {
            let line = "WidgetGraphics: image \"\(name)\" is not drawn (the placeholder is): \(reason)\n"
            _ = line.utf8CString.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count - 1) }
        }
        return nil
    }
}
