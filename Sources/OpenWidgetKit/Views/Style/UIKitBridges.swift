import FoundationEssentials

/// The few UIKit names widget code uses to reach colours and images (`import SwiftUI` brings
/// UIKit on iOS; here the `UIKit` module name and every other Apple name bring these):
/// `UIColor` — components, the system and semantic colours, and the dynamic provider that picks
/// a colour per appearance — with `Color(uiColor:)`, and `UIImage(named:)` / `UIImage(systemName:)` /
/// `UIImage(contentsOfFile:)` / `UIImage(data:)` (PNG or JPEG)
/// with `Image(uiImage:)`. Nothing else of UIKit is provided (docs/porting.md).
///
/// A dynamic colour is resolved when a `Color` is made from it, in the appearance of the view
/// being evaluated (`\.colorScheme`: `preview --dark`, the daemon's `picture.colorScheme`), as
/// a view's body makes it. Values: safe from any thread.
public final class UIColor: Hashable, Sendable {
    enum Storage: Sendable {
        case fixed(StyleSpec)
        case dynamic(@Sendable (UITraitCollection) -> UIColor)
    }
    let storage: Storage

    init(spec: StyleSpec) { storage = .fixed(spec) }
    /// A colour of the palette, by its name there (`primary`, `fill.secondary`, `blue`…).
    init(system name: String) { storage = .fixed(StyleSpec(name: name)) }

    public init(red: Double, green: Double, blue: Double, alpha: Double) { storage = .fixed(StyleSpec(rgba: [red, green, blue, alpha])) }
    public init(white: Double, alpha: Double) { storage = .fixed(StyleSpec(rgba: [white, white, white, alpha])) }
    public init(hue: Double, saturation: Double, brightness: Double, alpha: Double) {
        storage = .fixed(Color(hue: hue, saturation: saturation, brightness: brightness, opacity: alpha).spec)
    }
    /// `UIColor { traits in traits.userInterfaceStyle == .dark ? .white : .black }`.
    public init(dynamicProvider: @escaping @Sendable (UITraitCollection) -> UIColor) { storage = .dynamic(dynamicProvider) }
    /// An asset colour of the bundle, by name (as `Color("Name")`).
    public init?(named name: String) { storage = .fixed(Color(name).spec) }

    /// This colour in `traits`' appearance (a fixed colour is itself).
    public func resolvedColor(with traits: UITraitCollection) -> UIColor {
        switch storage {
        case .fixed: self
        case .dynamic(let provider): provider(traits).resolvedColor(with: traits)
        }
    }

    /// The colour as a style, in the appearance of the evaluation running on this thread.
    var spec: StyleSpec {
        guard case .fixed(let spec) = resolvedColor(with: .current).storage else { return StyleSpec(name: "primary") }
        return spec
    }

    public func withAlphaComponent(_ alpha: Double) -> UIColor {
        var s = spec
        if s.rgba?.count == 4 { s.rgba?[3] = alpha; s.opacity = nil } else { s.opacity = alpha }
        return UIColor(spec: s)
    }

    public static func == (a: UIColor, b: UIColor) -> Bool { a === b || a.spec == b.spec }
    public func hash(into hasher: inout Hasher) { hasher.combine(spec) }

    public static let black = UIColor(system: "black")
    public static let white = UIColor(system: "white")
    public static let clear = UIColor(system: "clear")
    public static let red = UIColor(red: 1, green: 0, blue: 0, alpha: 1)
    public static let green = UIColor(red: 0, green: 1, blue: 0, alpha: 1)
    public static let blue = UIColor(red: 0, green: 0, blue: 1, alpha: 1)
    public static let gray = UIColor(white: 0.5, alpha: 1)
    public static let darkGray = UIColor(white: 1 / 3, alpha: 1)
    public static let lightGray = UIColor(white: 2 / 3, alpha: 1)
    public static let systemRed = UIColor(system: "red")
    public static let systemOrange = UIColor(system: "orange")
    public static let systemYellow = UIColor(system: "yellow")
    public static let systemGreen = UIColor(system: "green")
    public static let systemMint = UIColor(system: "mint")
    public static let systemTeal = UIColor(system: "teal")
    public static let systemCyan = UIColor(system: "cyan")
    public static let systemBlue = UIColor(system: "blue")
    public static let systemIndigo = UIColor(system: "indigo")
    public static let systemPurple = UIColor(system: "purple")
    public static let systemPink = UIColor(system: "pink")
    public static let systemBrown = UIColor(system: "brown")
    public static let systemGray = UIColor(system: "gray")
    public static let tintColor = UIColor(system: "accent")
    public static let label = UIColor(system: "primary")
    public static let secondaryLabel = UIColor(system: "secondary")
    public static let tertiaryLabel = UIColor(system: "tertiary")
    public static let quaternaryLabel = UIColor(system: "quaternary")
    public static let systemFill = UIColor(system: "fill")
    public static let secondarySystemFill = UIColor(system: "fill.secondary")
    public static let tertiarySystemFill = UIColor(system: "fill.tertiary")
    public static let quaternarySystemFill = UIColor(system: "fill.quaternary")
    public static let systemBackground = UIColor(system: "background")
    /// iOS's grouped and secondary backgrounds, light and dark.
    public static let secondarySystemBackground = UIColor.appearance(light: [0.949, 0.949, 0.969], dark: [0.110, 0.110, 0.118])
    public static let tertiarySystemBackground = UIColor.appearance(light: [1, 1, 1], dark: [0.173, 0.173, 0.180])
    public static let systemGroupedBackground = UIColor.appearance(light: [0.949, 0.949, 0.969], dark: [0, 0, 0])
    public static let secondarySystemGroupedBackground = UIColor.appearance(light: [1, 1, 1], dark: [0.110, 0.110, 0.118])

    private static func appearance(light: [Double], dark: [Double]) -> UIColor {
        UIColor { traits in
            let c = traits.userInterfaceStyle == .dark ? dark : light
            return UIColor(red: c[0], green: c[1], blue: c[2], alpha: 1)
        }
    }
}

/// The traits a dynamic `UIColor` is resolved in: the appearance.
public struct UITraitCollection: Hashable, Sendable {
    public var userInterfaceStyle: UIUserInterfaceStyle
    public init(userInterfaceStyle: UIUserInterfaceStyle) { self.userInterfaceStyle = userInterfaceStyle }
    /// The traits of the evaluation running on this thread (its `\.colorScheme`).
    public static var current: UITraitCollection {
        UITraitCollection(userInterfaceStyle: EnvironmentValues.current.colorScheme == .dark ? .dark : .light)
    }
}

public enum UIUserInterfaceStyle: Int, Hashable, Sendable { case unspecified, light, dark }

/// An image by name: an asset of the bundle or an SF Symbol; or a PNG or JPEG read at run time
/// (`init?(contentsOfFile:)`, `init?(data:)`), whose bytes travel in the view tree as an asset's
/// do. No pixels are decoded here (the renderer decodes them). Immutable; any thread.
public final class UIImage: Hashable, Sendable {
    let name: String?, systemName: String?
    let asset: ImageAsset?
    public init?(named name: String) { self.name = name; systemName = nil; asset = nil }
    public init?(systemName name: String) { self.name = nil; systemName = name; asset = nil }

    /// A PNG's or JPEG's bytes at 1 pixel a point (a JPEG's EXIF orientation applied, as iOS
    /// does); nil when they are neither, are a JPEG the renderer does not draw (CMYK, 12-bit,
    /// lossless, arithmetic), or are larger than a view tree carries
    /// (`WireValidation.maxImageBase64Bytes` in base64, `maxImageSide`, `maxImagePixels`).
    public convenience init?(data: Data) { self.init(data: data, name: nil) }

    init?(data: Data, name: String?) {
        guard let variant = try? ImageVariant(file: data, scale: 1) else { return nil }
        self.name = name; systemName = nil
        asset = ImageAsset(name: name ?? "", variants: [variant])
    }

    /// The PNG or JPEG file at `path`, read now (in a worker: a path its sandbox lets it read); nil when
    /// it cannot be read or `init?(data:)` refuses it. Its file name is the image's name (the
    /// text outputs' alt text, as an asset's name is).
    public convenience init?(contentsOfFile path: String) {
        guard let data = try? Data(contentsOf: URL(fileURLWithPath: path), options: .mappedIfSafe) else { return nil }
        self.init(data: data, name: path.split(separator: "/").last.map(String.init))
    }

    var image: Image {
        if let asset { return Image(asset: asset, name: name) }
        return systemName.map(Image.init(systemName:)) ?? Image(name ?? "")
    }
    public static func == (a: UIImage, b: UIImage) -> Bool { a.name == b.name && a.systemName == b.systemName && a.asset == b.asset }
    public func hash(into hasher: inout Hasher) { hasher.combine(name); hasher.combine(systemName); hasher.combine(asset) }
}

extension Color {
    /// `Color(uiColor: .secondarySystemBackground)`: resolved in the evaluation's appearance.
    public init(uiColor: UIColor) { self.init(spec: uiColor.spec) }
    /// `Color(UIColor.systemBlue)`.
    public init(_ uiColor: UIColor) { self.init(spec: uiColor.spec) }
}

extension Image {
    /// `Image(uiImage: UIImage(named: "logo")!)`: the same image as `Image("logo")`.
    public init(uiImage: UIImage) { self = uiImage.image }
}
