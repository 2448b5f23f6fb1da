import FoundationEssentials
import OpenWidgetKit
import WidgetRendering

/// Lays out a `ViewNode` tree in points with SwiftUI's rules: the parent proposes a size, the
/// child chooses its own, and the parent places it. Stacks offer space to their least flexible
/// children first, by descending `layoutPriority`; `Spacer`s and frames with `.infinity` take
/// what is left. A subtree in the right-to-left `LayoutDirection` is the mirror image of its
/// left-to-right layout (`LayoutDirectionMirror`).
///
/// Pure: no I/O; text goes through the injected `TextMeasurer`. Bounded whatever the tree
/// holds (see `LayoutLimits`). Threading: an engine is used by one thread at a time (the
/// measurer need not be thread-safe); separate engines may run in parallel.
public struct LayoutEngine {
    public var measurer: any TextMeasurer
    /// The instant live dates are formatted at.
    public var now: Date
    /// The formats of live times and dates (`Text(date, style: .time)`, `.dateTime` fields).
    public var locale: LocaleFormats

    public init(measurer: any TextMeasurer, now: Date, locale: LocaleFormats = .posix) {
        self.measurer = measurer
        self.now = now
        self.locale = locale
    }

    /// Lays `root` out in `bounds`: it is proposed the bounds' size and centred in them, as a
    /// widget's view is in its content area.
    public func layout(_ root: ViewNode, in rect: Rect) -> PlacedNode {
        let bounds = Rect(x: rect.x.isFinite ? rect.x : 0, y: rect.y.isFinite ? rect.y : 0,
                          width: Sanitize.length(rect.width) ?? 0, height: Sanitize.length(rect.height) ?? 0)
        var builder = LayoutBoxBuilder(now: now, locale: locale)
        guard let box = builder.build(root, env: LayoutEnvironment(), depth: 0) else {
            return PlacedNode(node: root, frame: bounds, contentFrame: bounds, text: nil, indicator: nil, font: .body, children: [])
        }
        let pass = LayoutPass(measurer: measurer)
        let p = ProposedSize(bounds.size)
        let s = Sanitize.drawable(pass.size(box, p), p)
        let origin = AlignmentSpec.center.origin(of: s, in: bounds)
        let placed = pass.place(box, at: origin, proposal: p)
        // Laid out left to right; right-to-left subtrees are then mirrored (a tree that names
        // no direction is not visited again).
        return builder.namesDirection ? LayoutDirectionMirror.resolve(placed) : placed
    }
}

/// One layout's sizing and placement over a box tree (see `LayoutEngine`).
final class LayoutPass {
    let measurer: any TextMeasurer
    var queries = 0

    init(measurer: any TextMeasurer) { self.measurer = measurer }

    // MARK: sizing

    /// The size `b` chooses for proposal `p` (cached per proposal).
    func size(_ b: LayoutBox, _ proposal: ProposedSize) -> Size {
        let p = Sanitize.proposal(proposal)
        if let s = b.sizes[p] { return s }
        queries += 1
        guard queries <= LayoutLimits.maxSizeQueries else { return .zero }
        let s = framedSize(b, fixed(b, p))
        b.sizes[p] = s
        return s
    }

    private func fixed(_ b: LayoutBox, _ p: ProposedSize) -> ProposedSize {
        var q = p
        if b.fixedWidth { q.width = nil }
        if b.fixedHeight { q.height = nil }
        return q
    }

    /// What a frame proposes to its content.
    private func frameProposal(_ f: FrameBox, _ p: ProposedSize) -> ProposedSize {
        if f.isFixed { return ProposedSize(width: f.width ?? p.width, height: f.height ?? p.height) }
        func one(_ v: Double?, _ lo: Double?, _ hi: Double?) -> Double? {
            guard var v else { return nil }
            if let lo { v = max(lo, v) }
            if let hi { v = min(hi, v) }
            return v
        }
        return ProposedSize(width: one(p.width, f.minWidth, f.maxWidth), height: one(p.height, f.minHeight, f.maxHeight))
    }

    private func framedSize(_ b: LayoutBox, _ p: ProposedSize) -> Size {
        guard let f = b.frame else { return paddedSize(b, p) }
        let cp = frameProposal(f, p)
        if let w = f.width, let h = f.height { return Size(width: w, height: h) }
        let cs = paddedSize(b, cp)
        if f.isFixed { return Size(width: f.width ?? cs.width, height: f.height ?? cs.height) }
        func one(_ child: Double, _ proposed: Double?, _ lo: Double?, _ hi: Double?) -> Double {
            var v = child
            let offered = proposed ?? child
            if let lo { v = max(lo, min(v, offered)) }
            if let hi { v = min(hi, max(v, offered)) }
            return v
        }
        return Size(width: one(cs.width, p.width, f.minWidth, f.maxWidth), height: one(cs.height, p.height, f.minHeight, f.maxHeight))
    }

    private func inner(_ p: ProposedSize, _ e: Insets) -> ProposedSize {
        ProposedSize(width: p.width.map { max(0, $0 - e.horizontal) }, height: p.height.map { max(0, $0 - e.vertical) })
    }

    private func paddedSize(_ b: LayoutBox, _ p: ProposedSize) -> Size {
        guard let e = b.padding else { return contentSize(b, p) }
        let s = contentSize(b, inner(p, e))
        return Size(width: s.width + e.horizontal, height: s.height + e.vertical)
    }

    private func contentSize(_ b: LayoutBox, _ p: ProposedSize) -> Size {
        if let s = b.contentSizes[p] { return s }
        let s = uncachedContentSize(b, aspectProposal(b, p))
        b.contentSizes[p] = s
        return s
    }

    /// What `aspectRatio` turns a proposal into: the largest (fit) or smallest (fill) size of
    /// the ratio within (around) the proposal; with one dimension unspecified, the other
    /// follows from the ratio; with none, the content's ideal size.
    private func aspectProposal(_ b: LayoutBox, _ p: ProposedSize) -> ProposedSize {
        guard let a = b.aspect else { return p }
        var ratio = a.ratio
        if ratio == nil {
            let ideal = uncachedContentSize(b, .unspecified)
            if ideal.width.isFinite, ideal.height.isFinite, ideal.width > 0, ideal.height > 0 { ratio = ideal.width / ideal.height }
        }
        guard let r = ratio else { return p }
        switch (p.width, p.height) {
        case (let w?, let h?) where w.isFinite && h.isFinite:
            let wide = w / max(h, 1e-9) > r
            let byHeight = a.fill ? !wide : wide
            return byHeight ? ProposedSize(width: h * r, height: h) : ProposedSize(width: w, height: w / r)
        case (let w?, _) where w.isFinite: return ProposedSize(width: w, height: w / r)
        case (_, let h?) where h.isFinite: return ProposedSize(width: h * r, height: h)
        default: return p
        }
    }

    private func uncachedContentSize(_ b: LayoutBox, _ p: ProposedSize) -> Size {
        switch b.behaviour {
        case .stack(let axis):
            let d = distribute(b, axis, p)
            if axis == .horizontal, let last = b.baselineAlignment {
                let (_, above, below) = baselineRow(b, d, last: last)
                var s = stackSize(b, axis, d)
                s.height = above + below
                return s
            }
            return stackSize(b, axis, d)
        case .zstack:
            return zstack(b, p).size
        case .text:
            return text(b, p).1
        case .image(let resizable):
            // An asset image's own size in points; a symbol's follows its glyph and the font.
            let natural = b.node.asset?.pointSize.flatMap { s in
                s.width.isFinite && s.height.isFinite && s.width > 0 && s.height > 0
                    ? Size(width: min(s.width, LayoutLimits.maxLength), height: min(s.height, LayoutLimits.maxLength)) : nil
            } ?? { let s = symbol(b); return Size(width: s.width, height: s.height) }()
            if resizable { return Size(width: p.width ?? natural.width, height: p.height ?? natural.height) }
            return natural
        case .spacer:
            let axis = b.parentAxis ?? .vertical
            let minLength = Sanitize.length(b.node.value) ?? 8
            return Size(axis: axis, main: max(minLength, p[axis] ?? minLength), cross: 0)
        case .divider:
            if b.parentAxis == .horizontal { return Size(width: 1, height: p.height ?? 0) }
            return Size(width: p.width ?? 0, height: 1)
        case .fill:
            return Size(width: p.width ?? 10, height: p.height ?? 10)
        case .fixed(let s):
            return s
        case .progressLinear:
            return linearControl(b, p, barHeight: 4).size
        case .gaugeLinear:
            return linearControl(b, p, barHeight: 6).size
        case .viewThatFits(let h, let v):
            guard let i = chosenCandidate(b, p, horizontal: h, vertical: v) else { return .zero }
            return size(b.children[i], p)
        case .grid:
            return grid(b, p).size
        case .lazyGrid(let axis):
            return lazyGrid(b, axis, p).size
        case .circularControl(let ideal, let largest):
            // SwiftUI's circular gauge and progress styles never shrink with the proposal (a
            // stack that cannot fit one overflows rather than squeezing the ring away); the
            // accessory gauge styles grow up to `largest`, the Lock Screen circle (a bigger
            // ring takes `scaleEffect`).
            let offered = min(p.width ?? ideal, p.height ?? ideal)
            let side = min(max(offered.isNaN ? ideal : offered, ideal), largest)
            return Size(width: side, height: side)
        }
    }

    // MARK: stacks

    private func isSpacer(_ b: LayoutBox) -> Bool { if case .spacer = b.behaviour { return true }; return false }

    /// Spacing after child `i` of a stack: the explicit spacing, else 8, else 0 next to a spacer.
    private func spacing(_ b: LayoutBox, after i: Int) -> Double {
        if let s = b.spacing { return s }
        if isSpacer(b.children[i]) || isSpacer(b.children[i + 1]) { return 0 }
        return 8
    }

    private func totalSpacing(_ b: LayoutBox) -> Double {
        guard b.children.count > 1 else { return 0 }
        var t = 0.0
        for i in 0..<(b.children.count - 1) { t += spacing(b, after: i) }
        return t
    }

    /// The proposal and chosen size of each child of a stack proposed `p`.
    func distribute(_ b: LayoutBox, _ axis: Axis, _ p: ProposedSize) -> [(ProposedSize, Size)] {
        if let d = b.distributions[p] { return d }
        let d = uncachedDistribute(b, axis, p)
        b.distributions[p] = d
        return d
    }

    private func uncachedDistribute(_ b: LayoutBox, _ axis: Axis, _ p: ProposedSize) -> [(ProposedSize, Size)] {
        let kids = b.children
        guard !kids.isEmpty else { return [] }
        func prop(_ main: Double?) -> ProposedSize {
            var q = ProposedSize.unspecified
            q[axis] = main
            q[axis.other] = p[axis.other]
            return q
        }
        // Unspecified, infinite or zero along the axis (the ideal and the flexibility probes):
        // every child gets the same proposal, no distribution needed.
        guard let main = p[axis], main.isFinite, main > 0 else {
            let q = prop(p[axis])
            return kids.map { (q, size($0, q)) }
        }
        var remaining = max(0, main - totalSpacing(b))
        let mins = kids.map { size($0, prop(0))[axis] }
        let flex = kids.indices.map { i -> Double in
            let f = size(kids[i], prop(.infinity))[axis] - mins[i]
            return f.isNaN ? .infinity : f
        }
        var result = [(ProposedSize, Size)](repeating: (prop(0), .zero), count: kids.count)
        let first = kids[0].priority
        let priorities = kids.allSatisfy({ $0.priority == first }) ? [first] : Set(kids.map(\.priority)).sorted(by: >)
        for priority in priorities {
            // Least flexible first; spacers last, with their minimum kept for them meanwhile,
            // so text does not wrap to make room for a spacer beyond its minimum length.
            let group = kids.indices.filter { kids[$0].priority == priority }.sorted { a, b in
                let sa = isSpacer(kids[a]), sb = isSpacer(kids[b])
                if sa != sb { return sb }
                return flex[a] < flex[b] || (flex[a] == flex[b] && a < b)
            }
            var reservedBelow = 0.0
            if priorities.count > 1 { for i in kids.indices where kids[i].priority < priority { reservedBelow += mins[i] } }
            var offer = max(0, remaining - reservedBelow)
            var spacerMins = 0.0, others = 0.0
            for i in group { if isSpacer(kids[i]) { spacerMins += mins[i] } else { others += 1 } }
            var left = Double(group.count)
            for i in group {
                let spacer = isSpacer(kids[i])
                let share = spacer ? offer / left : (offer - spacerMins) / others
                let q = prop(max(0, share))
                let s = size(kids[i], q)
                result[i] = (q, s)
                offer -= s[axis]
                remaining -= s[axis]
                left -= 1
                if !spacer { others -= 1 }
            }
        }
        return result
    }

    /// The children of a baseline-aligned `HStack`: each one's baseline (a view without text
    /// sits on the line with its bottom; a symbol shorter than the cap height has its baseline
    /// below its box), and the row's extent above and below the line.
    private func baselineRow(_ b: LayoutBox, _ d: [(ProposedSize, Size)], last: Bool) -> (baselines: [Double], above: Double, below: Double) {
        var baselines: [Double] = [], above = 0.0, below = 0.0
        for (i, c) in b.children.enumerated() {
            let h = d[i].1.height
            let line = min(max(baseline(c, d[i].0, last: last) ?? h, 0), 2 * h)
            baselines.append(line)
            above = max(above, line)
            below = max(below, h - line)
        }
        return (baselines, above, below)
    }

    /// Distance from the top of `b` (as sized for `p`) to its first (or last) text baseline;
    /// nil when it shows no text.
    func baseline(_ b: LayoutBox, _ proposal: ProposedSize, last: Bool, depth: Int = 0) -> Double? {
        guard depth < LayoutLimits.maxDepth else { return nil }
        let p = Sanitize.proposal(proposal)
        let s = size(b, p)
        var q = fixed(b, p)
        var dy = 0.0
        if let f = b.frame {
            q = frameProposal(f, q)
            dy += (s.height - paddedSize(b, q).height) * f.alignment.y
        }
        if let e = b.padding {
            dy += e.top
            q = inner(q, e)
        }
        let content = contentSize(b, q)
        switch b.behaviour {
        case .text:
            let (t, size) = text(b, q)
            let lineHeight = t.font.size * 1.2
            return dy + (last ? max(t.baseline, size.height - lineHeight + t.baseline) : t.baseline)
        case .stack(let axis):
            let d = distribute(b, axis, q)
            if axis == .horizontal {
                if let l = b.baselineAlignment { return dy + baselineRow(b, d, last: l).above }
                for (i, c) in b.children.enumerated() {
                    if let line = baseline(c, d[i].0, last: last, depth: depth + 1) {
                        return dy + (content.height - d[i].1.height) * b.alignment.y + line
                    }
                }
                return nil
            }
            var offsets: [Double] = []
            var y = 0.0
            for i in b.children.indices {
                offsets.append(y)
                y += d[i].1.height + (i < b.children.count - 1 ? spacing(b, after: i) : 0)
            }
            for i in (last ? Array(b.children.indices.reversed()) : Array(b.children.indices)) {
                if let line = baseline(b.children[i], d[i].0, last: last, depth: depth + 1) { return dy + offsets[i] + line }
            }
            return nil
        case .zstack:
            let z = zstack(b, q)
            for (i, c) in b.children.enumerated() {
                if let line = baseline(c, z.proposals[i], last: last, depth: depth + 1) {
                    return dy + (content.height - size(c, z.proposals[i]).height) * b.alignment.y + line
                }
            }
            return nil
        case .image(resizable: false) where b.node.symbol != nil:
            return dy + symbol(b).baseline
        default:
            return nil
        }
    }

    /// The box of an image at its font: an `Image(systemName:)` as the measurer sizes the
    /// symbol, any other image a square of 1.2 × the font size.
    private func symbol(_ b: LayoutBox) -> SymbolMeasurement {
        guard let name = b.node.symbol else { return .square(size: b.font.size) }
        return measurer.measureSymbol(name, font: b.font)
    }

    private func stackSize(_ b: LayoutBox, _ axis: Axis, _ d: [(ProposedSize, Size)]) -> Size {
        var main = totalSpacing(b), cross = 0.0
        for (_, s) in d { main += s[axis]; cross = max(cross, s[axis.other]) }
        return Size(axis: axis, main: max(0, main), cross: cross)
    }

    // MARK: zstack

    private func isLayer(_ b: LayoutBox) -> Bool { b.node.role == "overlay" || b.node.role == "background" }

    /// A ZStack's size and each child's proposal: the primary children (not `overlay` /
    /// `background` layers) are proposed `p`; the layers are proposed the primaries' size.
    func zstack(_ b: LayoutBox, _ p: ProposedSize) -> (size: Size, proposals: [ProposedSize]) {
        var w = 0.0, h = 0.0
        var proposals = [ProposedSize](repeating: p, count: b.children.count)
        let hasPrimary = b.children.contains { !isLayer($0) }
        for c in b.children where !isLayer(c) || !hasPrimary {
            let s = size(c, p)
            w = max(w, s.width); h = max(h, s.height)
        }
        if hasPrimary {
            for (i, c) in b.children.enumerated() where isLayer(c) { proposals[i] = ProposedSize(width: w, height: h) }
        }
        return (Size(width: w, height: h), proposals)
    }

    // MARK: text

    /// The text of `b` laid out for `p`: fewer lines when the height is short, a smaller font
    /// down to `minimumScaleFactor` when it is cut.
    func text(_ b: LayoutBox, _ p: ProposedSize) -> (PlacedText, Size) {
        if let t = b.texts[p] { return t }
        var width = p.width.flatMap { $0.isFinite ? $0 : nil }
        var maxLines = b.lineLimit
        var font = b.font
        // The unwrapped text first: when it fits the width on offer, wrapping changes nothing
        // (one text engine call instead of two for most texts).
        var m = measure(b, font, nil, maxLines)
        if let w = width, m.width <= w { width = nil } else { m = measure(b, font, width, maxLines) }
        func fitLines(_ m: TextMeasurement) {
            guard let h = p.height, h.isFinite, m.height > h + 0.001, m.lineHeight > 0 else { return }
            let fit = max(1, Int(saturating: (h / m.lineHeight + 0.001).rounded(.down)))
            if fit < (maxLines ?? Int.max) { maxLines = fit }
        }
        fitLines(m)
        if maxLines != b.lineLimit { m = measure(b, font, width, maxLines) }
        if m.truncated && b.scaleFactor < 1 {
            let lines = maxLines
            let smallest = measure(b, b.font.scaled(b.scaleFactor), width, lines)
            if smallest.truncated {
                font = b.font.scaled(b.scaleFactor); m = smallest
            } else {
                var lo = b.scaleFactor, hi = 1.0, best = smallest
                for _ in 0..<6 {
                    let mid = (lo + hi) / 2
                    let t = measure(b, b.font.scaled(mid), width, lines)
                    if t.truncated { hi = mid } else { lo = mid; best = t }
                }
                font = b.font.scaled(lo); m = best
            }
        }
        let w = width.map { min(m.width, $0) } ?? m.width
        let placed = PlacedText(string: b.text, font: font, width: width, maxLines: maxLines, alignment: b.textAlignment, baseline: m.baseline, textCase: b.textCase)
        let result = (placed, Size(width: w, height: m.height))
        b.texts[p] = result
        return result
    }

    /// The measurer's answer, asked once per layout for the same arguments (a text is
    /// measured at the same width through several proposals that differ only in height). A
    /// width of 0 (a stack asking for a minimum) is answered without the measurer: nothing fits.
    private func measure(_ b: LayoutBox, _ font: ResolvedFont, _ width: Double?, _ maxLines: Int?) -> TextMeasurement {
        if let width, width <= 0 {
            let line = font.size * 1.2
            return TextMeasurement(width: 0, height: line, lineHeight: line, baseline: font.size, truncated: !b.text.isEmpty)
        }
        let key = MeasureKey(font: font, width: width, maxLines: maxLines)
        if let m = b.measurements[key] { return m }
        let m = measurer.measure(b.text, font: font, width: width, maxLines: maxLines)
        b.measurements[key] = m
        return m
    }

    // MARK: controls

    /// The space between a linear control's rows (label, bar, current value), as iOS draws
    /// `ProgressView(value:label:currentValueLabel:)` and the linear gauge styles.
    static let linearRowSpacing = 4.0
    /// The space between a bar and the minimum / maximum label at its end.
    static let linearEndSpacing = 4.0

    /// A linear progress view or gauge as iOS lays it out: the label above the bar (leading),
    /// the bar between the minimum and maximum labels (each at its end, centred on the bar),
    /// the current value under the bar (leading); rows `linearRowSpacing` apart, absent rows
    /// take no room. Returns the size and the children's frames relative to the control's
    /// origin, and the bar.
    func linearControl(_ b: LayoutBox, _ p: ProposedSize, barHeight: Double) -> (size: Size, frames: [(LayoutBox, ProposedSize, Rect)], bar: Rect) {
        let label = b.child(role: "label"), current = b.child(role: "currentValueLabel")
        let lo = b.child(role: "minimumValueLabel"), hi = b.child(role: "maximumValueLabel")
        let rowProposal = ProposedSize(width: p.width, height: nil)
        let ls = label.map { size($0, rowProposal) } ?? .zero
        let cs = current.map { size($0, rowProposal) } ?? .zero
        let los = lo.map { size($0, .unspecified) } ?? .zero
        let his = hi.map { size($0, .unspecified) } ?? .zero
        let ends = (lo == nil ? 0 : los.width + Self.linearEndSpacing) + (hi == nil ? 0 : his.width + Self.linearEndSpacing)
        let width = p.width ?? max(ls.width, cs.width, ends + 60)
        let gap = Self.linearRowSpacing
        let barTop = label == nil ? 0 : ls.height + gap
        let barRow = max(barHeight, los.height, his.height)
        let valueTop = barTop + barRow + gap
        let total = Size(width: width, height: current == nil ? barTop + barRow : valueTop + cs.height)
        var frames: [(LayoutBox, ProposedSize, Rect)] = []
        if let label { frames.append((label, rowProposal, Rect(x: 0, y: 0, width: ls.width, height: ls.height))) }
        if let current { frames.append((current, rowProposal, Rect(x: 0, y: valueTop, width: cs.width, height: cs.height))) }
        var barX = 0.0, barEnd = width
        if let lo {
            frames.append((lo, .unspecified, Rect(x: 0, y: barTop + (barRow - los.height) / 2, width: los.width, height: los.height)))
            barX = los.width + Self.linearEndSpacing
        }
        if let hi {
            frames.append((hi, .unspecified, Rect(x: width - his.width, y: barTop + (barRow - his.height) / 2, width: his.width, height: his.height)))
            barEnd = width - his.width - Self.linearEndSpacing
        }
        let bar = Rect(x: barX, y: barTop + (barRow - barHeight) / 2, width: max(0, barEnd - barX), height: barHeight)
        return (total, frames, bar)
    }

    // MARK: placement

    /// Places `b` with its top-left at `origin`, as sized for `proposal`.
    func place(_ b: LayoutBox, at origin: (x: Double, y: Double), proposal: ProposedSize) -> PlacedNode {
        let p = Sanitize.proposal(proposal)
        let s = Sanitize.drawable(size(b, p), p)
        let outer = Rect(x: origin.x + b.offset.x, y: origin.y + b.offset.y, width: s.width, height: s.height)
        var q = fixed(b, p)
        var padded = outer
        if let f = b.frame {
            q = frameProposal(f, q)
            let cs = Sanitize.drawable(paddedSize(b, q), q)
            padded = Rect(origin: f.alignment.origin(of: cs, in: outer), size: cs)
        }
        var contentRect = padded
        if let e = b.padding {
            q = inner(q, e)
            contentRect = padded.inset(by: e)
        }
        let cs = Sanitize.drawable(contentSize(b, q), q)
        contentRect = Rect(x: contentRect.x, y: contentRect.y, width: cs.width, height: cs.height)
        var placed = PlacedNode(node: b.node, frame: outer, contentFrame: contentRect, text: nil, indicator: nil, font: b.font, children: [])
        placeContent(b, into: &placed, proposal: aspectProposal(b, q))
        return placed
    }

    private func placeContent(_ b: LayoutBox, into placed: inout PlacedNode, proposal q: ProposedSize) {
        let r = placed.contentFrame
        switch b.behaviour {
        case .stack(let axis):
            var cursor = axis == .horizontal ? r.x : r.y
            let d = distribute(b, axis, q)
            let crossAlign = axis == .horizontal ? b.alignment.y : b.alignment.x
            let row = axis == .horizontal ? b.baselineAlignment.map { baselineRow(b, d, last: $0) } : nil
            for (i, c) in b.children.enumerated() {
                let s = Sanitize.drawable(d[i].1, d[i].0)
                var crossOrigin = axis == .horizontal ? r.y + (r.height - s.height) * crossAlign : r.x + (r.width - s.width) * crossAlign
                if let row { crossOrigin = r.y + row.above - row.baselines[i] }
                let o = axis == .horizontal ? (cursor, crossOrigin) : (crossOrigin, cursor)
                let child = place(c, at: o, proposal: d[i].0)
                cursor += s[axis]
                if i < b.children.count - 1 { cursor += spacing(b, after: i) }
                if c.node.role == LayoutBoxBuilder.switchRole { placed.indicator = child.frame; continue }
                if c.node.role == LayoutBoxBuilder.syntheticSpacer { continue }
                placed.children.append(child)
            }
        case .zstack:
            let z = zstack(b, q)
            for (i, c) in b.children.enumerated() {
                let s = Sanitize.drawable(size(c, z.proposals[i]), z.proposals[i])
                placed.children.append(place(c, at: b.alignment.origin(of: s, in: r), proposal: z.proposals[i]))
            }
        case .text:
            placed.text = text(b, q).0
        case .progressLinear, .gaugeLinear:
            let c = linearControl(b, q, barHeight: { if case .gaugeLinear = b.behaviour { return 6.0 }; return 4.0 }())
            for (child, cp, f) in c.frames { placed.children.append(place(child, at: (r.x + f.x, r.y + f.y), proposal: cp)) }
            placed.indicator = c.bar.offsetBy(r.x, r.y)
        case .circularControl:
            placed.indicator = r
            let side = min(r.width, r.height)
            let current = b.child(role: "currentValueLabel"), label = b.child(role: "label")
            if let center = current ?? label {
                let cp = ProposedSize(width: side * 0.62, height: side * 0.45)
                let s = Sanitize.drawable(size(center, cp), cp)
                placed.children.append(place(center, at: (r.midX - s.width / 2, r.midY - s.height / 2), proposal: cp))
            }
            // With a value in the middle and no minimum or maximum labels, the label sits in
            // the bottom opening of the ring's 270° arc, as iOS draws it (a gauge's symbol
            // under its value); the full ring of the capacity style shows the value only.
            if current != nil, let label, b.node.kind == .gauge, ["accessoryCircular", "circular"].contains(b.node.style ?? ""),
               b.child(role: "minimumValueLabel") == nil, b.child(role: "maximumValueLabel") == nil {
                let cp = ProposedSize(width: side * 0.36, height: side * 0.2)
                let s = Sanitize.drawable(size(label, cp), cp)
                placed.children.append(place(label, at: (r.midX - s.width / 2, r.y + side * 0.87 - s.height / 2), proposal: cp))
            }
            for (role, fx) in [("minimumValueLabel", 0.22), ("maximumValueLabel", 0.78)] {
                guard let l = b.child(role: role) else { continue }
                let cp = ProposedSize(width: side * 0.3, height: side * 0.25)
                let s = Sanitize.drawable(size(l, cp), cp)
                placed.children.append(place(l, at: (r.x + side * fx - s.width / 2, r.y + side * 0.88 - s.height / 2), proposal: cp))
            }
        case .viewThatFits(let h, let v):
            guard let i = chosenCandidate(b, q, horizontal: h, vertical: v) else { break }
            let c = b.children[i]
            let s = Sanitize.drawable(size(c, q), q)
            placed.children.append(place(c, at: AlignmentSpec.center.origin(of: s, in: r), proposal: q))
        case .grid, .lazyGrid:
            let g: GridArrangement
            if case .lazyGrid(let axis) = b.behaviour { g = lazyGrid(b, axis, q) } else { g = grid(b, q) }
            for (i, c) in b.children.enumerated() {
                guard i < g.cells.count, let cell = g.cells[i] else { continue }
                let (cp, f) = cell
                guard let cells = g.rowCells[i] else {
                    placed.children.append(place(c, at: (r.x + f.x, r.y + f.y), proposal: cp))
                    continue
                }
                // A GridRow: its cells where the grid put them (the row's own frame and padding
                // are not applied).
                let rowRect = f.offsetBy(r.x, r.y)
                var row = PlacedNode(node: c.node, frame: rowRect, contentFrame: rowRect, text: nil, indicator: nil, font: c.font, children: [])
                for (j, cell) in c.children.enumerated() where j < cells.count {
                    row.children.append(place(cell, at: (r.x + cells[j].1.x, r.y + cells[j].1.y), proposal: cells[j].0))
                }
                placed.children.append(row)
            }
        case .image, .spacer, .divider, .fill, .fixed:
            break
        }
    }
}
