import FoundationEssentials

/// Widget, environment, redaction and pixel-only modifiers.
extension View {
    /// The URL opened when the widget is clicked (`modifiers.widgetURL`). The first applied wins.
    public func widgetURL(_ url: URL?) -> ModifiedContent<Self, _NodeModifier> {
        let s = url?.absoluteString
        return _NodeModifier.modifiers { m in if m.widgetURL == nil { m.widgetURL = s } }.apply(to: self)
    }

    /// The widget's background (`modifiers.containerBackground`), drawn by the host when
    /// `showsWidgetContainerBackground` is true.
    public func containerBackground<S: ShapeStyle>(_ style: S, for placement: ContainerBackgroundPlacement) -> ModifiedContent<Self, _NodeModifier> {
        let spec = style._styleSpec
        return _NodeModifier.modifiers { m in if m.containerBackground == nil { m.containerBackground = spec } }.apply(to: self)
    }

    /// A view as the widget's background: its colour when it is a `Color` (or a filled shape),
    /// otherwise `StyleSpec(name: "custom")`.
    public func containerBackground<V: View>(for placement: ContainerBackgroundPlacement, alignment: Alignment = .center,
                                             @ViewBuilder content: () -> V) -> ModifiedContent<Self, _NodeModifier> {
        let v = content()
        return _NodeModifier.modifiers { m in
            guard m.containerBackground == nil else { return }
            let first = ViewEval.nodes(v).first
            m.containerBackground = first?.shape?.fill ?? StyleSpec(name: "custom")
        }.apply(to: self)
    }

    /// Sets an environment value for this subtree's evaluation.
    /// `\.layoutDirection` is also written on the subtree's nodes
    /// (`other["layoutDirection"]`, the innermost wins), so the host mirrors their layout.
    public func environment<V>(_ keyPath: WritableKeyPath<EnvironmentValues, V>, _ value: V) -> ModifiedContent<Self, _NodeModifier> {
        if keyPath == \EnvironmentValues.layoutDirection, let direction = value as? LayoutDirection {
            let mark = _NodeModifier.other(LayoutDirection.modifierKey, .string(direction.rawValue))
            return _NodeModifier(environment: { $0[keyPath: keyPath] = value }, transform: mark.transform).apply(to: self)
        }
        return _NodeModifier(environment: { $0[keyPath: keyPath] = value }, transform: { $0 }).apply(to: self)
    }

    /// Redacts this subtree: `modifiers.redacted = true` and `redactionReasons` gains `reason`
    /// for the subtree's evaluation. An empty reason set changes nothing.
    public func redacted(reason: RedactionReasons) -> ModifiedContent<Self, _NodeModifier> {
        guard !reason.isEmpty else { return _NodeModifier { $0 }.apply(to: self) }
        return _NodeModifier(environment: { $0.redactionReasons.formUnion(reason) }) { node in
            var n = node
            var m = n.mods
            if m.redacted == nil { m.redacted = true }
            n.modifiers = m
            return n
        }.apply(to: self)
    }

    /// Exempts this subtree from redaction: `modifiers.redacted = false` and empty `redactionReasons`.
    public func unredacted() -> ModifiedContent<Self, _NodeModifier> {
        _NodeModifier(environment: { $0.redactionReasons = [] }) { node in
            var n = node
            var m = n.mods
            if m.redacted == nil { m.redacted = false }
            n.modifiers = m
            return n
        }.apply(to: self)
    }

    /// Marks this subtree as private (`modifiers.privacySensitive`), hidden on a locked screen.
    public func privacySensitive(_ sensitive: Bool = true) -> ModifiedContent<Self, _NodeModifier> {
        _NodeModifier.modifiers { m in if m.privacySensitive == nil { m.privacySensitive = sensitive } }.apply(to: self)
    }

    /// Marks this subtree as accented in the accented rendering mode (`other["widgetAccentable"]`).
    public func widgetAccentable(_ accentable: Bool = true) -> ModifiedContent<Self, _NodeModifier> {
        _NodeModifier.other("widgetAccentable", .bool(accentable)).apply(to: self)
    }

    public func contentTransition(_ transition: ContentTransition) -> ModifiedContent<Self, _NodeModifier> {
        _NodeModifier.other("contentTransition", .string(transition.name)).apply(to: self)
    }

    /// `modifiers.other["shadow"]`: `radius`, `x`, `y` and `color` (the colour's `name` /
    /// `rgba` / `opacity`, as a style spec's).
    public func shadow(color: Color = Color(white: 0, opacity: 0.33), radius: Double, x: Double = 0, y: Double = 0) -> ModifiedContent<Self, _NodeModifier> {
        let c = color._styleSpec
        var spec: [String: JSONValue] = [:]
        if let n = c.name { spec["name"] = .string(n) }
        if let v = c.rgba { spec["rgba"] = .array(v.map { .number($0) }) }
        if let o = c.opacity { spec["opacity"] = .number(o) }
        return _NodeModifier.other("shadow", .object(["radius": .number(radius), "x": .number(x), "y": .number(y), "color": .object(spec)])).apply(to: self)
    }

    public func blur(radius: Double, opaque: Bool = false) -> ModifiedContent<Self, _NodeModifier> {
        _NodeModifier.other("blur", .number(radius)).apply(to: self)
    }

    public func cornerRadius(_ radius: Double, antialiased: Bool = true) -> ModifiedContent<Self, _NodeModifier> {
        _NodeModifier.other("cornerRadius", .number(radius)).apply(to: self)
    }

    /// Clips to a shape: `other["clipShape"]` holds the shape type (and corner radius if any).
    public func clipShape<S: Shape>(_ shape: S) -> ModifiedContent<Self, _NodeModifier> {
        let info = shape._shapeInfo
        var value: [String: JSONValue] = ["type": .string(info.type)]
        if let r = info.cornerRadius { value["cornerRadius"] = .number(r) }
        return _NodeModifier.other("clipShape", .object(value)).apply(to: self)
    }

    /// Clips to the view's frame: `clipShape(Rectangle())`, drawn in pictures.
    public func clipped(antialiased: Bool = false) -> ModifiedContent<Self, _NodeModifier> {
        clipShape(Rectangle())
    }

    public func scaleEffect(_ scale: Double, anchor: UnitPoint = .center) -> ModifiedContent<Self, _NodeModifier> {
        _NodeModifier.other("scaleEffect", .number(scale)).apply(to: self)
    }

    public func offset(x: Double = 0, y: Double = 0) -> ModifiedContent<Self, _NodeModifier> {
        _NodeModifier.other("offset", .object(["x": .number(x), "y": .number(y)])).apply(to: self)
    }

    /// Lets this view take its ideal size on the given axes, whatever its parent proposes
    /// (`other["fixedSize"]` = `{"horizontal": Bool, "vertical": Bool}`).
    public func fixedSize(horizontal: Bool = true, vertical: Bool = true) -> ModifiedContent<Self, _NodeModifier> {
        _NodeModifier.other("fixedSize", .object(["horizontal": .bool(horizontal), "vertical": .bool(vertical)])).apply(to: self)
    }

    /// Marks content that is invalid while an intent runs (`other["invalidatableContent"]`).
    public func invalidatableContent(_ invalidatable: Bool = true) -> ModifiedContent<Self, _NodeModifier> {
        _NodeModifier.other("invalidatableContent", .bool(invalidatable)).apply(to: self)
    }
}

/// How an image shows in the accented rendering mode (`other["widgetAccentedRenderingMode"]`).
public struct WidgetAccentedRenderingMode: Hashable, Sendable {
    let name: String
    public static let accented = WidgetAccentedRenderingMode(name: "accented")
    public static let desaturated = WidgetAccentedRenderingMode(name: "desaturated")
    public static let accentedDesaturated = WidgetAccentedRenderingMode(name: "accentedDesaturated")
    public static let fullColor = WidgetAccentedRenderingMode(name: "fullColor")
}

/// How an SF Symbol's layers are coloured (`other["symbolRenderingMode"]`).
public struct SymbolRenderingMode: Hashable, Sendable {
    let name: String
    public static let monochrome = SymbolRenderingMode(name: "monochrome")
    public static let hierarchical = SymbolRenderingMode(name: "hierarchical")
    public static let palette = SymbolRenderingMode(name: "palette")
    public static let multicolor = SymbolRenderingMode(name: "multicolor")
}

extension Image {
    /// The scale of a symbol relative to its text (`other["imageScale"]`).
    public enum Scale: String, Hashable, Sendable { case small, medium, large }
}

/// An animation: accepted, never run (a widget's tree is a still; `contentTransition` is what
/// the host may animate between entries).
public struct Animation: Hashable, Sendable {
    let name: String
    public static let `default` = Animation(name: "default")
    public static let linear = Animation(name: "linear")
    public static let easeIn = Animation(name: "easeIn")
    public static let easeOut = Animation(name: "easeOut")
    public static let easeInOut = Animation(name: "easeInOut")
    public static let spring = Animation(name: "spring")
    public static let bouncy = Animation(name: "bouncy")
    public static let smooth = Animation(name: "smooth")
    public static func linear(duration: Double) -> Animation { .linear }
    public static func easeInOut(duration: Double) -> Animation { .easeInOut }
    public static func spring(response: Double = 0.5, dampingFraction: Double = 0.825, blendDuration: Double = 0) -> Animation { .spring }
    public func delay(_ delay: Double) -> Animation { self }
    public func speed(_ speed: Double) -> Animation { self }
    public func repeatForever(autoreverses: Bool = true) -> Animation { self }
}

extension View {
    /// The label an accessory widget shows around or below its content (on iOS: the text
    /// curved around an `accessoryCircular` gauge). The node is wrapped in a `group` whose
    /// last child, role `"widgetLabel"`, is the label; renderers show it in accessory
    /// families only, as iOS does.
    public func widgetLabel<Label: View>(@ViewBuilder label: () -> Label) -> ModifiedContent<Self, _NodeModifier> {
        let l = label()
        return _NodeModifier { node in
            var inner = node
            inner.role = nil
            var g = ViewNode(kind: .group, children: [inner] + ViewEval.slot(l, role: "widgetLabel"))
            g.role = node.role
            return g
        }.apply(to: self)
    }

    public func widgetLabel(_ label: LocalizedStringKey) -> ModifiedContent<Self, _NodeModifier> {
        widgetLabel { Text(label) }
    }

    @_disfavoredOverload public func widgetLabel<S: StringProtocol>(_ label: S) -> ModifiedContent<Self, _NodeModifier> {
        widgetLabel { Text(label) }
    }

    /// `other["widgetAccentedRenderingMode"]`.
    public func widgetAccentedRenderingMode(_ mode: WidgetAccentedRenderingMode?) -> ModifiedContent<Self, _NodeModifier> {
        _NodeModifier.other("widgetAccentedRenderingMode", mode.map { .string($0.name) } ?? .null).apply(to: self)
    }

    /// `other["symbolRenderingMode"]`.
    public func symbolRenderingMode(_ mode: SymbolRenderingMode?) -> ModifiedContent<Self, _NodeModifier> {
        _NodeModifier.other("symbolRenderingMode", mode.map { .string($0.name) } ?? .null).apply(to: self)
    }

    /// `other["imageScale"]`.
    public func imageScale(_ scale: Image.Scale) -> ModifiedContent<Self, _NodeModifier> {
        _NodeModifier.other("imageScale", .string(scale.rawValue)).apply(to: self)
    }

    /// Accepted, changes nothing: a widget's tree is a still.
    public func animation<V: Equatable>(_ animation: Animation?, value: V) -> ModifiedContent<Self, _NodeModifier> {
        _NodeModifier { $0 }.apply(to: self)
    }

    /// Accepted, changes nothing (deprecated on iOS too).
    public func animation(_ animation: Animation?) -> ModifiedContent<Self, _NodeModifier> {
        _NodeModifier { $0 }.apply(to: self)
    }

    /// `modifiers.id`: the identity, as its description (the first applied wins).
    public func id<ID: Hashable>(_ id: ID) -> ModifiedContent<Self, _NodeModifier> {
        let s = String(describing: id)
        return _NodeModifier.modifiers { m in if m.id == nil { m.id = s } }.apply(to: self)
    }

    /// `modifiers.accessibilityHidden`: hidden from assistive technologies, still drawn.
    public func accessibilityHidden(_ hidden: Bool) -> ModifiedContent<Self, _NodeModifier> {
        _NodeModifier.modifiers { m in if m.accessibilityHidden == nil { m.accessibilityHidden = hidden } }.apply(to: self)
    }
}
