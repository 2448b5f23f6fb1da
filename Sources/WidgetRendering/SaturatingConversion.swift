import FoundationEssentials

// `Int(x)` of a `Double` traps on NaN, ±inf and anything past ±9.2·10¹⁸, and a length computed
// from a plugin's numbers can be any of those even when each number is in range: an adaptive
// `GridItem` of minimum 1 and spacing −1 made `Int(329 / 0)` in `GridBuilder.lanes` kill the host
// at every start (issue 23). The renderers, the layout and the drawing convert every computed
// length with these instead: total functions, no trap for any input. Pure; safe from any thread.

extension Int {
    /// The largest magnitude `init(saturating:)` gives: 2⁴⁰ (a trillion cells or pixels), far
    /// past any real length and far enough below `Int.max` that sums and products of a few such
    /// lengths cannot overflow in turn.
    public static let saturationLimit = 1 << 40

    /// `Int(v)` (toward zero, as `Int(_:)`), total: NaN gives `nan`, and a value past
    /// ±`saturationLimit` (±inf included) gives ±`saturationLimit`.
    @inlinable public init(saturating v: Double, nan: Int = 0) {
        let limit = Double(Int.saturationLimit)
        if v.isNaN { self = nan } else if v >= limit { self = Int.saturationLimit } else if v <= -limit { self = -Int.saturationLimit } else { self = Int(v) }
    }
}

extension Int32 {
    /// `Int32(v)` (toward zero), total: NaN gives `nan`, a value out of `Int32`'s range
    /// (±inf included) gives `Int32.max` or `Int32.min`.
    @inlinable public init(saturating v: Double, nan: Int32 = 0) {
        if v.isNaN { self = nan } else if v >= Double(Int32.max) { self = .max } else if v <= Double(Int32.min) { self = .min } else { self = Int32(v) }
    }
}
