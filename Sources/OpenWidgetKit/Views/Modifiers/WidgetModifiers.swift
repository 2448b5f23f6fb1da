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
    public func environment<V>(_ keyPath: WritableKeyPath<EnvironmentValues, V>, _ value: V) -> ModifiedContent<Self, _NodeModifier> {
        _NodeModifier(environment: { $0[keyPath: keyPath] = value }, transform: { $0 }).apply(to: self)
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

    public func shadow(color: Color = Color(white: 0, opacity: 0.33), radius: Double, x: Double = 0, y: Double = 0) -> ModifiedContent<Self, _NodeModifier> {
        _NodeModifier.other("shadow", .object(["radius": .number(radius), "x": .number(x), "y": .number(y)])).apply(to: self)
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

    public func scaleEffect(_ scale: Double, anchor: UnitPoint = .center) -> ModifiedContent<Self, _NodeModifier> {
        _NodeModifier.other("scaleEffect", .number(scale)).apply(to: self)
    }

    public func offset(x: Double = 0, y: Double = 0) -> ModifiedContent<Self, _NodeModifier> {
        _NodeModifier.other("offset", .object(["x": .number(x), "y": .number(y)])).apply(to: self)
    }

    /// Constrains this view to `ratio` (width / height; nil: its ideal size's ratio), fitting
    /// or filling what its parent proposes (`other["aspectRatio"]` = `{"ratio": Number?,
    /// "mode": "fit" | "fill"}`).
    public func aspectRatio(_ ratio: Double? = nil, contentMode: ContentMode = .fit) -> ModifiedContent<Self, _NodeModifier> {
        _NodeModifier.other("aspectRatio", .object(["ratio": ratio.map(JSONValue.number) ?? .null, "mode": .string(contentMode.rawValue)])).apply(to: self)
    }

    /// `aspectRatio(contentMode: .fit)`.
    public func scaledToFit() -> ModifiedContent<Self, _NodeModifier> { aspectRatio(contentMode: .fit) }

    /// `aspectRatio(contentMode: .fill)`.
    public func scaledToFill() -> ModifiedContent<Self, _NodeModifier> { aspectRatio(contentMode: .fill) }

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
