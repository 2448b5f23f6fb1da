import Testing
@testable import WidgetGraphics

// `BoxBlur`: three boxes per axis whose variance is σ², the pixels' sum kept, in bounded time.

@Test(arguments: [1.0, 2.5, 4.0, 10.0, 30.0])
func threeBoxesHaveTheGaussiansVariance(sigma: Double) {
    // A box of half-width r has variance ((2r + 1)² − 1) / 12; three in a row add up.
    let variance = BoxBlur.radii(sigma: sigma).map { r in (Double((2 * r + 1) * (2 * r + 1)) - 1) / 12 }.reduce(0, +)
    #expect(abs(variance.squareRoot() - sigma) < 0.5, "σ \(sigma): \(variance.squareRoot())")
}

@Test func aBlurredPointSpreadsSymmetricallyAndKeepsItsWeight() {
    // One opaque white pixel in the middle of 41 × 41 transparent ones.
    let w = 41, stride = w * 4
    var data = [UInt8](repeating: 0, count: w * stride / 4 * 4)
    for c in 0..<4 { data[20 * stride + 20 * 4 + c] = 255 }
    data.withUnsafeMutableBufferPointer { BoxBlur.blur($0.baseAddress!, width: w, height: w, stride: stride, sigma: 2) }
    func alpha(_ x: Int, _ y: Int) -> Int { Int(data[y * stride + x * 4 + 3]) }
    #expect(alpha(20, 20) > alpha(21, 20) && alpha(21, 20) > alpha(23, 20))
    #expect(alpha(18, 20) == alpha(22, 20) && alpha(20, 18) == alpha(20, 22))
    #expect(alpha(0, 0) == 0)
    // Rounding aside, the weight (255) is spread, not lost.
    var total = 0
    for y in 0..<w { for x in 0..<w { total += alpha(x, y) } }
    #expect(abs(total - 255) < 60, "\(total)")
}
