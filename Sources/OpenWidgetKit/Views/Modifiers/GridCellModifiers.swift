/// A `Grid` cell's place in its grid, as in SwiftUI: kept in the cell's `modifiers.other`
/// (`gridCellColumns`: a number, `gridCellAnchor`: `[x, y]`, `gridColumnAlignment`: a
/// horizontal alignment's name) and applied by the picture layout (WidgetLayout's grid). Text
/// renderers ignore them.
extension View {
    /// The cell spans `count` columns of its `GridRow` (1 and less: one).
    public func gridCellColumns(_ count: Int) -> ModifiedContent<Self, _NodeModifier> {
        _NodeModifier.other("gridCellColumns", .number(Double(count))).apply(to: self)
    }

    /// Where the cell sits in its cell rectangle, instead of the grid's alignment.
    public func gridCellAnchor(_ anchor: UnitPoint) -> ModifiedContent<Self, _NodeModifier> {
        _NodeModifier.other("gridCellAnchor", .array([.number(anchor.x), .number(anchor.y)])).apply(to: self)
    }

    /// Every cell of this cell's column is aligned so horizontally (the first cell of a
    /// column that says so wins).
    public func gridColumnAlignment(_ guide: HorizontalAlignment) -> ModifiedContent<Self, _NodeModifier> {
        _NodeModifier.other("gridColumnAlignment", .string(guide.name)).apply(to: self)
    }
}
