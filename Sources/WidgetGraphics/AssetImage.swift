import CCairo
import FoundationEssentials
import OpenWidgetKit
import WidgetLayout

/// An asset catalogue image of a view tree (`ViewNode.asset`) as a Cairo surface: the variant
/// nearest the picture's scale, decoded from its PNG (Cairo) or JPEG (`JPEGImage`) bytes.
///
/// The bytes come from a plugin, so nothing is trusted: the base64 must decode, the PNG header's
/// (or JPEG frame header's) size must match the variant's and stay within
/// `WireValidation.maxImagePixels`, and the file must decode; otherwise there is no surface and
/// the painter draws its placeholder.
/// Threading: a value used on the painter's thread; the surface is owned (destroyed by `release`).
struct AssetImage {
    let surface: OpaquePointer
    let variant: ImageVariant

    /// The variant of `asset` for `scale` device pixels per point, decoded; nil when it does not decode.
    init?(_ asset: ImageAsset, scale: Double) {
        guard let v = asset.variant(forScale: scale), v.width > 0, v.height > 0,
              v.width <= WireValidation.maxImageSide, v.height <= WireValidation.maxImageSide,
              v.width * v.height <= WireValidation.maxImagePixels else { return nil }
        let decoded: OpaquePointer?
        if let png = v.png {
            guard png.utf8.count <= WireValidation.maxImageBase64Bytes, let bytes = Data(base64Encoded: png),
                  // The header's size is what Cairo will allocate: it must be the size the tree declares.
                  let (width, height) = ImageVariant.pngSize(bytes), width == v.width, height == v.height else { return nil }
            decoded = PixelImage.surface(fromPNG: [UInt8](bytes))
        } else if let jpeg = v.jpeg {
            guard jpeg.utf8.count <= WireValidation.maxImageBase64Bytes, let bytes = Data(base64Encoded: jpeg) else { return nil }
            decoded = JPEGImage.surface(fromJPEG: [UInt8](bytes), width: v.width, height: v.height, name: asset.name)
        } else {
            return nil
        }
        guard let decoded else { return nil }
        let width = v.width, height = v.height
        guard cairo_surface_status(decoded) == CAIRO_STATUS_SUCCESS,
              Int(cairo_image_surface_get_width(decoded)) == width, Int(cairo_image_surface_get_height(decoded)) == height else {
            cairo_surface_destroy(decoded)
            return nil
        }
        surface = decoded
        variant = v
    }

    func release() { cairo_surface_destroy(surface) }

    /// Draws the image stretched over `rect` (points) on `cr`: its own colours with `alpha`, or
    /// as a mask filled with the current source (`template`, as `renderingMode(.template)`).
    func paint(on cr: OpaquePointer, in rect: Rect, alpha: Double, template: Bool) {
        guard rect.width > 0, rect.height > 0 else { return }
        // On whole device pixels, as SwiftUI places images: a file drawn at its own scale stays sharp.
        var x = rect.x, y = rect.y
        cairo_user_to_device(cr, &x, &y)
        x.round(); y.round()
        cairo_device_to_user(cr, &x, &y)
        let rect = Rect(x: x, y: y, width: rect.width, height: rect.height)
        cairo_save(cr)
        cairo_rectangle(cr, rect.x, rect.y, rect.width, rect.height)
        cairo_clip(cr)
        cairo_translate(cr, rect.x, rect.y)
        cairo_scale(cr, rect.width / Double(variant.width), rect.height / Double(variant.height))
        if template {
            cairo_mask_surface(cr, surface, 0, 0)
        } else {
            cairo_set_source_surface(cr, surface, 0, 0)
            cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_GOOD)
            cairo_paint_with_alpha(cr, alpha)
        }
        cairo_restore(cr)
    }
}
