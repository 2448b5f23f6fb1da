/// A Gaussian blur approximated by three box blurs per axis (the central limit: three boxes
/// are within a few per cent of a Gaussian), over premultiplied ARGB32 pixels in place — what
/// `.blur(radius:)` does to a view's pixels. Each pass is a running sum, so the cost is
/// 6 × 4 additions per pixel whatever the radius; the caller bounds the pixels (a view's frame
/// grown by 3 σ, within the clip). Pixels outside the buffer count as transparent, as around a
/// view. Pure; any thread (the buffer is the caller's).
enum BoxBlur {
    /// The largest standard deviation honoured, in pixels.
    static let maxSigma = 64.0

    /// The half-widths of three boxes whose succession has standard deviation `sigma`
    /// (W. Jarosz, "Fast image convolutions", 2001: the widths wl and wl + 2 mixed).
    static func radii(sigma: Double) -> [Int] {
        let s = min(max(sigma, 0), maxSigma)
        let ideal = (12 * s * s / 3 + 1).squareRoot()
        var wl = Int(ideal.rounded(.down))
        if wl % 2 == 0 { wl -= 1 }
        wl = max(wl, 1)
        let m = ((12 * s * s - 3 * Double(wl * wl) - 12 * Double(wl) - 9) / (-4 * Double(wl) - 4)).rounded()
        return (0..<3).map { Double($0) < m ? (wl - 1) / 2 : (wl + 1) / 2 }
    }

    /// Blurs the `width` × `height` pixels at `data` (rows `stride` bytes apart) with a
    /// Gaussian of `sigma` pixels.
    static func blur(_ data: UnsafeMutablePointer<UInt8>, width: Int, height: Int, stride: Int, sigma: Double) {
        guard width > 0, height > 0, sigma >= 0.5 else { return }
        var line = [Int32](repeating: 0, count: max(width, height) * 4)
        for r in radii(sigma: sigma) where r > 0 {
            for y in 0..<height { pass(data + y * stride, count: width, step: 4, radius: r, line: &line) }
            for x in 0..<width { pass(data + x * 4, count: height, step: stride, radius: r, line: &line) }
        }
    }

    /// One box of half-width `radius` along `count` pixels `step` bytes apart.
    private static func pass(_ base: UnsafeMutablePointer<UInt8>, count n: Int, step: Int, radius r: Int, line: inout [Int32]) {
        line.withUnsafeMutableBufferPointer { src in
            for i in 0..<n {
                let p = base + i * step
                src[i * 4] = Int32(p[0]); src[i * 4 + 1] = Int32(p[1]); src[i * 4 + 2] = Int32(p[2]); src[i * 4 + 3] = Int32(p[3])
            }
            let window = Int32(2 * r + 1)
            for c in 0..<4 {
                var sum: Int32 = 0
                for i in 0...min(r, n - 1) { sum += src[i * 4 + c] }
                for i in 0..<n {
                    base[i * step + c] = UInt8(clamping: (sum + window / 2) / window)
                    let enter = i + r + 1, leave = i - r
                    if enter < n { sum += src[enter * 4 + c] }
                    if leave >= 0 { sum -= src[leave * 4 + c] }
                }
            }
        }
    }
}
