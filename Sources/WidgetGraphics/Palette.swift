import OpenWidgetKit

/// A colour with alpha, components 0…1.
struct RGBA: Hashable {
    var r: Double, g: Double, b: Double, a: Double
    init(_ r: Double, _ g: Double, _ b: Double, _ a: Double = 1) { self.r = r; self.g = g; self.b = b; self.a = a }
    init(hex: UInt32, alpha: Double = 1) {
        self.init(Double((hex >> 16) & 0xFF) / 255, Double((hex >> 8) & 0xFF) / 255, Double(hex & 0xFF) / 255, alpha)
    }
    func with(alpha f: Double) -> RGBA { RGBA(r, g, b, a * f) }
}

/// Light or dark appearance.
public enum Appearance: String, Sendable, CaseIterable { case light, dark }

/// How colours are shown: full colour (home screen), or one tint with the alpha carrying the
/// hierarchy (the accessory families' vibrant / monochrome rendering mode on the Lock Screen).
enum RenderingMode { case fullColor, monochrome }

/// Apple's system colours and semantic styles, light and dark, and how a `StyleSpec` becomes
/// a colour under a foreground and a tint. Immutable tables: safe from any thread.
struct Palette {
    let appearance: Appearance
    let mode: RenderingMode

    static let light: [String: UInt32] = [
        "red": 0xFF3B30, "orange": 0xFF9500, "yellow": 0xFFCC00, "green": 0x34C759, "mint": 0x00C7BE,
        "teal": 0x30B0C7, "cyan": 0x32ADE6, "blue": 0x007AFF, "indigo": 0x5856D6, "purple": 0xAF52DE,
        "pink": 0xFF2D55, "brown": 0xA2845E, "gray": 0x8E8E93, "grey": 0x8E8E93, "black": 0x000000, "white": 0xFFFFFF,
    ]
    static let dark: [String: UInt32] = [
        "red": 0xFF453A, "orange": 0xFF9F0A, "yellow": 0xFFD60A, "green": 0x30D158, "mint": 0x63E6E2,
        "teal": 0x40C8E0, "cyan": 0x64D2FF, "blue": 0x0A84FF, "indigo": 0x5E5CE6, "purple": 0xBF5AF2,
        "pink": 0xFF375F, "brown": 0xAC8E68, "gray": 0x8E8E93, "grey": 0x8E8E93, "black": 0x000000, "white": 0xFFFFFF,
    ]

    /// `label`: black / white.
    var label: RGBA { mode == .monochrome || appearance == .dark ? RGBA(1, 1, 1) : RGBA(0, 0, 0) }
    /// The hierarchical label greys (`secondaryLabel`…) are the label's base at an alpha.
    private var labelBase: RGBA { mode == .monochrome ? RGBA(1, 1, 1) : (appearance == .dark ? RGBA(hex: 0xEBEBF5) : RGBA(hex: 0x3C3C43)) }
    private var fillBase: RGBA { mode == .monochrome ? RGBA(1, 1, 1) : (appearance == .dark ? RGBA(hex: 0x787880) : RGBA(hex: 0x787880)) }
    var accent: RGBA { named("blue") }
    /// A material's tint: materials are drawn as translucent fills of it (no blur of what is
    /// behind, which a widget's background rarely shows anyway), thicker = more opaque.
    private var materialBase: RGBA {
        mode == .monochrome ? RGBA(1, 1, 1, 0.4) : (appearance == .dark ? RGBA(hex: 0x252528) : RGBA(hex: 0xF7F7F9))
    }
    /// A widget's default background (`systemBackground` of a widget).
    var widgetBackground: RGBA { appearance == .dark ? RGBA(hex: 0x1C1C1E) : RGBA(1, 1, 1) }
    /// The separator of a `Divider`.
    var separator: RGBA { labelBase.with(alpha: appearance == .dark ? 0.6 : 0.29) }

    func named(_ n: String) -> RGBA {
        if mode == .monochrome { return RGBA(1, 1, 1) }
        let table = appearance == .dark ? Self.dark : Self.light
        return RGBA(hex: table[n] ?? 0x8E8E93)
    }

    /// The colour of `spec` where the foreground is `foreground` and the tint `tint`.
    func color(_ spec: StyleSpec?, foreground: StyleSpec?, tint: StyleSpec?, depth: Int = 0) -> RGBA {
        guard let spec, depth < 4 else { return label }
        var c: RGBA
        if let v = spec.rgba, v.count >= 3 {
            func unit(_ x: Double) -> Double { x.isFinite ? min(max(x, 0), 1) : 0 }
            c = RGBA(unit(v[0]), unit(v[1]), unit(v[2]), v.count >= 4 ? unit(v[3]) : 1)
            if mode == .monochrome { c = RGBA(1, 1, 1, c.a) }
        } else {
            let name = (spec.name ?? "primary").lowercased()
            switch name {
            case "primary": c = label
            case "foreground": c = foreground.map { color($0, foreground: nil, tint: tint, depth: depth + 1) } ?? label
            case "secondary": c = labelBase.with(alpha: 0.6)
            case "tertiary": c = labelBase.with(alpha: 0.3)
            case "quaternary": c = labelBase.with(alpha: 0.18)
            case "fill": c = fillBase.with(alpha: appearance == .dark ? 0.36 : 0.2)
            case "fill.secondary": c = fillBase.with(alpha: appearance == .dark ? 0.32 : 0.16)
            case "fill.tertiary": c = fillBase.with(alpha: appearance == .dark ? 0.24 : 0.12)
            case "fill.quaternary": c = fillBase.with(alpha: appearance == .dark ? 0.18 : 0.08)
            case "accent", "accentcolor", "tint":
                c = tint.map { color($0, foreground: foreground, tint: nil, depth: depth + 1) } ?? accent
            case "clear": c = RGBA(0, 0, 0, 0)
            case "background": c = widgetBackground
            case "custom": c = fillBase.with(alpha: 0.3)
            case "material.ultrathin": c = materialBase.with(alpha: 0.35)
            case "material.thin": c = materialBase.with(alpha: 0.5)
            case "material.regular": c = materialBase.with(alpha: 0.65)
            case "material.bar": c = materialBase.with(alpha: 0.75)
            case "material.thick": c = materialBase.with(alpha: 0.8)
            case "material.ultrathick": c = materialBase.with(alpha: 0.9)
            default: c = named(name)
            }
        }
        if let o = spec.opacity, o.isFinite { c.a *= min(max(o, 0), 1) }
        return c
    }
}
