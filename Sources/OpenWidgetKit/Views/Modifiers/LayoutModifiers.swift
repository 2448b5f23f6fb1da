/// Layout modifiers. Inside one node they apply in the fixed order content → padding → frame →
/// background; applied in another order (or twice), the node is wrapped in a `group` carrying
/// the later modifier, so the tree always reflects the author's order.
extension View {
    /// The default padding: 16 pt on every edge.
    public func padding() -> ModifiedContent<Self, _NodeModifier> { padding(.all, 16) }

    public func padding(_ length: Double) -> ModifiedContent<Self, _NodeModifier> { padding(.all, length) }

    /// Padding on `edges`; `length` nil means the default 16 pt.
    public func padding(_ edges: Edge.Set = .all, _ length: Double? = nil) -> ModifiedContent<Self, _NodeModifier> {
        let l = length ?? 16
        return padding(EdgeInsets(top: edges.contains(.top) ? l : 0, leading: edges.contains(.leading) ? l : 0,
                                  bottom: edges.contains(.bottom) ? l : 0, trailing: edges.contains(.trailing) ? l : 0))
    }

    public func padding(_ insets: EdgeInsets) -> ModifiedContent<Self, _NodeModifier> {
        var modifier = _NodeModifier.layout(.padding) { m in m.padding = insets.spec }
        // A `GeometryReader` inside is told the padded area.
        modifier.environment = { env in env.geometryArea = env.readerArea.inset(by: insets) }
        return modifier.apply(to: self)
    }

    /// A fixed frame.
    public func frame(width: Double? = nil, height: Double? = nil, alignment: Alignment = .center) -> ModifiedContent<Self, _NodeModifier> {
        let spec = FrameSpec(width: width, height: height, alignment: alignment.name)
        var modifier = _NodeModifier.layout(.frame) { m in m.frame = spec }
        // A `GeometryReader` inside is told the frame's size.
        if width != nil || height != nil {
            modifier.environment = { env in env.geometryArea = env.readerArea.framed(width: width, height: height) }
        }
        return modifier.apply(to: self)
    }

    /// A flexible frame (`maxWidth: .infinity` fills the width). Ideal sizes are not serialized.
    public func frame(minWidth: Double? = nil, idealWidth: Double? = nil, maxWidth: Double? = nil,
                      minHeight: Double? = nil, idealHeight: Double? = nil, maxHeight: Double? = nil,
                      alignment: Alignment = .center) -> ModifiedContent<Self, _NodeModifier> {
        let spec = FrameSpec(minWidth: minWidth, maxWidth: maxWidth, minHeight: minHeight, maxHeight: maxHeight, alignment: alignment.name)
        return _NodeModifier.layout(.frame) { m in m.frame = spec }.apply(to: self)
    }

    /// A background style filling the node's frame (`modifiers.background`).
    public func background<S: ShapeStyle>(_ style: S, ignoresSafeAreaEdges edges: Edge.Set = .all) -> ModifiedContent<Self, _NodeModifier> {
        let spec = style._styleSpec
        return _NodeModifier.layout(.background) { m in m.background = spec }.apply(to: self)
    }

    /// A background style in a shape: a `zstack` with the filled shape (role `"background"`) behind the node.
    public func background<S: ShapeStyle, T: Shape>(_ style: S, in shape: T) -> ModifiedContent<Self, _NodeModifier> {
        let filled = shape.fill(style)
        return _NodeModifier.layer(alignment: .center, inFront: false) { ViewEval.nodes(filled) }.apply(to: self)
    }

    /// A view behind this one: a `zstack` whose first children (role `"background"`) are the
    /// background's nodes and whose last child is this node.
    public func background<V: View>(alignment: Alignment = .center, @ViewBuilder content: () -> V) -> ModifiedContent<Self, _NodeModifier> {
        let v = content()
        return _NodeModifier.layer(alignment: alignment, inFront: false) { ViewEval.nodes(v) }.apply(to: self)
    }

    /// A view in front of this one: a `zstack` whose first child is this node, followed by the
    /// overlay's nodes (role `"overlay"`).
    public func overlay<V: View>(alignment: Alignment = .center, @ViewBuilder content: () -> V) -> ModifiedContent<Self, _NodeModifier> {
        let v = content()
        return _NodeModifier.layer(alignment: alignment, inFront: true) { ViewEval.nodes(v) }.apply(to: self)
    }

    /// A view behind this one, as an argument (`.background(Circle().fill(.blue))`): as the
    /// `content:` form. Disfavoured, so a value that is both a view and a shape style
    /// (`Color`, a gradient) takes the `ShapeStyle` form, as on iOS.
    @_disfavoredOverload
    public func background<V: View>(_ background: V, alignment: Alignment = .center) -> ModifiedContent<Self, _NodeModifier> {
        _NodeModifier.layer(alignment: alignment, inFront: false) { ViewEval.nodes(background) }.apply(to: self)
    }

    /// A view in front of this one, as an argument (`.overlay(Text("New"), alignment: .topTrailing)`):
    /// as the `content:` form; disfavoured like `background(_:alignment:)`.
    @_disfavoredOverload
    public func overlay<V: View>(_ overlay: V, alignment: Alignment = .center) -> ModifiedContent<Self, _NodeModifier> {
        _NodeModifier.layer(alignment: alignment, inFront: true) { ViewEval.nodes(overlay) }.apply(to: self)
    }

    /// A shape style in front of this one, filling its frame (`.overlay(.black.opacity(0.2))`).
    public func overlay<S: ShapeStyle>(_ style: S, ignoresSafeAreaEdges edges: Edge.Set = .all) -> ModifiedContent<Self, _NodeModifier> {
        overlay(style, in: Rectangle())
    }

    public func overlay<S: ShapeStyle, T: Shape>(_ style: S, in shape: T) -> ModifiedContent<Self, _NodeModifier> {
        let filled = shape.fill(style)
        return _NodeModifier.layer(alignment: .center, inFront: true) { ViewEval.nodes(filled) }.apply(to: self)
    }
}

/// How `aspectRatio` fits content: `fit` inside the offer, or `fill` it.
public enum ContentMode: String, Hashable, Sendable { case fit, fill }

extension View {
    /// `modifiers.aspectRatio` (width ÷ height; nil = the content's own) and `contentMode`.
    public func aspectRatio(_ ratio: Double? = nil, contentMode: ContentMode) -> ModifiedContent<Self, _NodeModifier> {
        _NodeModifier.modifiers { m in
            guard m.contentMode == nil else { return }
            m.aspectRatio = ratio; m.contentMode = contentMode.rawValue
        }.apply(to: self)
    }

    public func scaledToFit() -> ModifiedContent<Self, _NodeModifier> { aspectRatio(contentMode: .fit) }
    public func scaledToFill() -> ModifiedContent<Self, _NodeModifier> { aspectRatio(contentMode: .fill) }
}
