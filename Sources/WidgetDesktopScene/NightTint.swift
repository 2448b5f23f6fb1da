/// StandBy's night mode, as an iPhone's StandBy shows it in a dark room: every pixel drawn in
/// red of its own brightness, nothing green or blue left (the scene's StandBy background is
/// already black). Applied by the scene to the rectangles it has just drawn, after drawing, on
/// the buffer's premultiplied ARGB32 pixels; drawing has no policy about when (the executable
/// sets `DesktopScene.night`).
///
/// Pure function of the pixels; any thread, on a buffer no other thread touches.
public enum NightTint {
    /// Rec. 709 luma weights in 1/256: red, green, blue (they sum to 256).
    static let weights: (r: UInt32, g: UInt32, b: UInt32) = (54, 183, 19)

    /// Turns the pixels of `rect` (clipped to the buffer) red: the red channel becomes the
    /// pixel's luma, green and blue zero, alpha kept. Premultiplied values stay premultiplied
    /// (the luma of premultiplied channels is at most alpha).
    public static func apply(to buffer: PixelBuffer, _ rect: PixelRect) {
        let x0 = max(0, rect.x), y0 = max(0, rect.y)
        let x1 = min(buffer.width, rect.x + rect.width), y1 = min(buffer.height, rect.y + rect.height)
        guard x0 < x1, y0 < y1, buffer.stride >= buffer.width * 4 else { return }
        for y in y0..<y1 {
            let row = (buffer.pixels + y * buffer.stride).assumingMemoryBound(to: UInt32.self)
            for x in x0..<x1 { row[x] = tinted(row[x]) }
        }
    }

    /// One ARGB32 pixel (native-endian `0xAARRGGBB`) in red.
    @inline(__always)
    public static func tinted(_ p: UInt32) -> UInt32 {
        let r = (p >> 16) & 0xFF, g = (p >> 8) & 0xFF, b = p & 0xFF
        let luma = (r * weights.r + g * weights.g + b * weights.b) >> 8
        return (p & 0xFF00_0000) | (luma << 16)
    }
}
