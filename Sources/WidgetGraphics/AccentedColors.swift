/// The colours of the accented rendering mode, iOS 18's tinted Home Screen: every colour of a
/// widget keeps its opacity and loses its hue — `widgetAccentable()` content takes the tint,
/// the rest a pale tone of it (white with a quarter of the tint) — and the widget's own
/// background gives way to a dark backdrop of the tint. Drawing only: which content is
/// accentable comes from the tree. An immutable value: safe from any thread.
struct AccentedColors: Hashable {
    /// The accent group's colour.
    let tint: RGBA
    /// The default group's colour.
    let tone: RGBA
    /// What the widget is drawn on instead of its background.
    let backdrop: RGBA

    init(tint c: RGBA) {
        tint = RGBA(c.r, c.g, c.b)
        tone = RGBA(1 - 0.25 * (1 - c.r), 1 - 0.25 * (1 - c.g), 1 - 0.25 * (1 - c.b))
        backdrop = RGBA(0.08 + 0.17 * c.r, 0.08 + 0.17 * c.g, 0.08 + 0.17 * c.b)
    }

    /// `c` as drawn: the tint or the tone at `c`'s opacity.
    func color(_ c: RGBA, accentable: Bool) -> RGBA {
        (accentable ? tint : tone).with(alpha: c.a)
    }
}
