import FoundationEssentials
import Synchronization
import CWidgetMainEntry
#if canImport(Glibc)
import Glibc
#endif

/// The asset catalogue and string tables of the widget bundle this copy of the SDK is linked
/// into, as the `WidgetBundleSupport` build plugin compiled them (docs/plugin-authoring.md,
/// "Resources").
///
/// The plugin turns a bundle folder's `Assets.xcassets` and `Localizable.strings` /
/// `.xcstrings` / `*.lproj` into one generated Swift file holding a JSON document (the
/// `Catalog` below) and exporting it as the C symbol `owk_bundle_resources_v1`. The resources
/// thus travel inside the `.so`: a sandboxed worker that sees only its `.so` has them. The SDK
/// is linked statically into each bundle and refers to the symbol weakly, so the link binds it
/// to its own bundle's (`owk_own_bundle_resources`, C, checks it is defined in the same object).
///
/// Loaded once, on the first lookup; a bundle without resources pays one `dlsym`. Lookups that
/// find nothing are recorded (`ResourceMisses`) so `preview` and `validate` can name them.
/// Threading: the catalogue is immutable once loaded; safe from any thread.
public struct BundleResources: Sendable {
    /// The generated document's version; a bundle built by a newer plugin with another
    /// version is treated as having no resources, and says so on stderr.
    public static let formatVersion = 1

    /// The compiled document (`Codable`, as the build tool writes it).
    public struct Catalog: Codable, Sendable, Equatable {
        public var v: Int
        /// The language a key falls back to (`.xcstrings`' `sourceLanguage`, else `en`).
        public var developmentLanguage: String?
        /// Colour name → appearance (`any`, `light`, `dark`) → sRGB `[r, g, b, a]`, 0…1.
        public var colors: [String: [String: [Double]]]?
        /// Image name → its variants (scale and appearance), PNG or JPEG bytes in base64.
        public var images: [String: [ImageVariant]]?
        /// Table (`Localizable`) → language (`de`, `pt-BR`) → key → value (a format when it has
        /// `%@`, `%lld`…).
        public var strings: [String: [String: [String: String]]]?
        /// Table → language → key → plural category (`zero`, `one`, `two`, `few`, `many`,
        /// `other`) → format: `.xcstrings`' `variations.plural`.
        public var plurals: [String: [String: [String: [String: String]]]]?

        public init(v: Int = BundleResources.formatVersion) { self.v = v }
    }

    public let catalog: Catalog

    public init(catalog: Catalog) { self.catalog = catalog }

    /// A catalogue from the generated document's bytes; nil with a message on stderr when it
    /// does not read (a bundle built by another SDK version).
    public init?(json: UnsafeRawBufferPointer) {
        do {
            let catalog = try JSONDecoder().decode(Catalog.self, from: Data(json))
            guard catalog.v == BundleResources.formatVersion else {
                BundleResources.warn("resources of format \(catalog.v), this SDK reads \(BundleResources.formatVersion): rebuild the bundle")
                return nil
            }
            self.catalog = catalog
        } catch {
            BundleResources.warn("the bundle's compiled resources do not read: \(error)")
            return nil
        }
    }

    // MARK: - The bundle's catalogue

    /// The resources of this bundle (empty when it has none), loaded on first use.
    public static var current: BundleResources { loadedResources() }

    /// Nil until the first lookup loads the bundle's catalogue.
    private static let state = Mutex<BundleResources?>(nil)

    /// The resources of this bundle (empty when it has none), loaded on first use.
    private static func loadedResources() -> BundleResources {
        state.withLock { loaded in
            if let loaded { return loaded }
            let r = BundleResources.loadFromOwnObject() ?? BundleResources(catalog: Catalog())
            loaded = r
            return r
        }
    }

    /// The C symbol the build plugin's generated file exports: a function returning a pointer to
    /// the document's UTF-8 bytes (static storage) and writing its length.
    public static let symbolName = "owk_bundle_resources_v1"

    private static func loadFromOwnObject() -> BundleResources? {
        var count = 0
        guard let bytes = owk_own_bundle_resources(&count), count > 0 else { return nil }
        return BundleResources(json: UnsafeRawBufferPointer(start: bytes, count: count))
    }

    static func warn(_ message: String) {
        let line = "OpenWidgetKit: " + message + "\n"
        _ = line.utf8CString.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count - 1) }
    }
}

/// One file of an image set: its scale (1, 2, 3), appearance (`any`, `light`, `dark`), size in
/// pixels and its bytes in base64 (as in the view tree, `ImageAsset`): a PNG in `png` or a JPEG
/// in `jpeg` — one of the two (a tree of before JPEGs has only `png`, and still decodes).
public struct ImageVariant: Codable, Hashable, Sendable {
    enum CodingKeys: String, CodingKey, CaseIterable { case scale, appearance, width, height, png, jpeg }
    public var scale: Double
    public var appearance: String?
    /// Pixels as drawn (from the PNG's IHDR, or the JPEG's SOF with its EXIF orientation
    /// applied); the size in points is these over `scale`.
    public var width: Int
    public var height: Int
    public var png: String?
    public var jpeg: String?

    public init(scale: Double, appearance: String? = nil, width: Int, height: Int, png: String? = nil, jpeg: String? = nil) {
        self.scale = scale; self.appearance = appearance; self.width = width; self.height = height; self.png = png; self.jpeg = jpeg
    }

    /// Why a file's bytes cannot be a variant; the description says it to the author.
    public enum FileRefusal: Error, CustomStringConvertible {
        case notAnImage
        case jpeg(JPEGHeader.Refusal)
        case tooLarge(width: Int, height: Int, bytes: Int)

        public var description: String {
            switch self {
            case .notAnImage: "is neither a PNG nor a JPEG file"
            case .jpeg(let refusal): "is \(refusal)"
            case .tooLarge(let w, let h, let bytes):
                "is \(w)×\(h) pixels, \(bytes) bytes: larger than a widget image may be "
                    + "(\(WireValidation.maxImageSide) pixels a side, \(WireValidation.maxImagePixels) pixels, "
                    + "\(WireValidation.maxImageBase64Bytes / 4 * 3) bytes)"
            }
        }
    }

    /// The variant of a PNG or JPEG file's `data`, its size read from the file's header (no
    /// pixel decoded) and held to what a view tree carries (`WireValidation.maxImageSide`,
    /// `maxImagePixels`, `maxImageBase64Bytes`); throws why not.
    public init(file data: Data, scale: Double, appearance: String? = nil) throws(FileRefusal) {
        let size: (width: Int, height: Int), isJPEG: Bool
        if let png = Self.pngSize(data) {
            size = png; isJPEG = false
        } else if JPEGHeader.isJPEG(data) {
            do { let h = try JPEGHeader.read(data); size = (h.width, h.height) } catch { throw .jpeg(error) }
            isJPEG = true
        } else {
            throw .notAnImage
        }
        guard size.width <= WireValidation.maxImageSide, size.height <= WireValidation.maxImageSide,
              size.width * size.height <= WireValidation.maxImagePixels,
              (data.count + 2) / 3 * 4 <= WireValidation.maxImageBase64Bytes
        else { throw .tooLarge(width: size.width, height: size.height, bytes: data.count) }
        let base64 = data.base64EncodedString()
        self.init(scale: scale, appearance: appearance, width: size.width, height: size.height,
                  png: isJPEG ? nil : base64, jpeg: isJPEG ? base64 : nil)
    }

    /// Width and height in pixels from a PNG file's signature and IHDR chunk; nil when the bytes
    /// are not a PNG.
    public static func pngSize<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> (width: Int, height: Int)? {
        let b = Array(bytes.prefix(24))
        guard b.count == 24, b[0..<8] == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], b[12..<16] == [0x49, 0x48, 0x44, 0x52] else { return nil }
        let w = b[16..<20].reduce(0) { $0 << 8 | Int($1) }, h = b[20..<24].reduce(0) { $0 << 8 | Int($1) }
        return w > 0 && h > 0 ? (w, h) : nil
    }
}
