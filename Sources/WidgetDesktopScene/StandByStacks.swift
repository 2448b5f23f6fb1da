import OpenWidgetKit
import WidgetHostCore

/// StandBy (`widgethost-desktop --standby`), as on an iPhone on its side on a nightstand: the
/// whole output black, two widget stacks side by side, each showing one widget at a time drawn
/// large — the widget's own picture rendered at the zoomed scale, never a resized bitmap. A
/// vertical swipe on a stack (or the Up / Down keys on the stack under the keyboard focus) shows
/// its next or previous widget.
///
/// The stacks come from the desktop's widgets in grid order: the first half (rounded up) is the
/// left stack, the rest the right one; one widget gives one stack, centred. Only widgets whose
/// family is known are stacked (as `DesktopPlacement` places them).
///
/// Pure value; any thread.
public struct StandByStacks: Equatable, Sendable {
    /// The widget shown in each stack: its index in `stacks(...)`' stack, kept modulo its size.
    public var shown: [Int] = [0, 0]

    public init() {}

    /// Empty space around each stack's widget, as a share of the smaller of the stack's
    /// width and height.
    public static let inset = 0.06

    /// The two stacks (either may be empty) of `layout.widgets` with a family in `families`.
    public static func stacks(_ layout: DesktopViewMessage.Layout, families: [String: WidgetFamily]) -> [[String]] {
        let known = layout.widgets.filter { families[$0] != nil }
        let left = (known.count + 1) / 2
        return [Array(known.prefix(left)), Array(known.dropFirst(left))]
    }

    /// The widget stack `stack` shows now, nil when that stack is empty.
    public func shownWidget(_ stack: Int, in stacks: [[String]]) -> String? {
        guard stacks.indices.contains(stack), !stacks[stack].isEmpty else { return nil }
        let n = stacks[stack].count
        let i = shown.indices.contains(stack) ? shown[stack] : 0
        return stacks[stack][((i % n) + n) % n]
    }

    /// Shows the next (`by` 1) or previous (`by` −1) widget of `stack`.
    public mutating func rotate(_ stack: Int, by step: Int) {
        guard shown.indices.contains(stack) else { return }
        shown[stack] &+= step
        if abs(shown[stack]) > 1 << 20 { shown[stack] = 0 }
    }

    /// The stack under area point `x` of an output `width` points wide with `stacks`.
    public static func stack(atX x: Double, width: Double, stacks: [[String]]) -> Int? {
        let used = stacks.indices.filter { !stacks[$0].isEmpty }
        guard !used.isEmpty else { return nil }
        if used.count == 1 { return used[0] }
        return x < width / 2 ? 0 : 1
    }
}

extension DesktopPlacement {
    /// StandBy's placement on `output`: the area is the whole output; each non-empty stack's
    /// shown widget is centred in its half (the whole output for a lone stack), zoomed to fill
    /// it less `StandByStacks.inset` on each side. Frames are the zoomed frames, `zoom` the factor.
    public init(standBy: StandByStacks, layout: DesktopViewMessage.Layout, families: [String: WidgetFamily], output: DisplayOutput) {
        let stacks = StandByStacks.stacks(layout, families: families)
        let outW = Self.positive(output.logicalWidth), outH = Self.positive(output.logicalHeight)
        grid = DesktopGrid(widgets: [], columns: 1, gap: 0)
        let used = stacks.indices.filter { !stacks[$0].isEmpty }
        guard !used.isEmpty, outW > 0, outH > 0 else { area = nil; widgets = []; return }
        area = LogicalRect(x: 0, y: 0, width: outW, height: outH)
        let halfW = used.count == 1 ? outW : outW / 2
        widgets = used.compactMap { stack -> Widget? in
            guard let id = standBy.shownWidget(stack, in: stacks), let family = families[id] else { return nil }
            let size = family.nominalSize
            let margin = StandByStacks.inset * min(halfW, outH)
            let zoom = min((halfW - 2 * margin) / size.width, (outH - 2 * margin) / size.height)
            guard zoom.isFinite, zoom > 0 else { return nil }
            let w = size.width * zoom, h = size.height * zoom
            let left = used.count == 1 ? 0 : Double(stack) * halfW
            return Widget(id: id, family: family, frame: LogicalRect(x: left + (halfW - w) / 2, y: (outH - h) / 2, width: w, height: h), zoom: zoom)
        }
    }

    private static func positive(_ v: Double) -> Double { v.isFinite && v > 0 && v < 1e6 ? v : 0 }
}
