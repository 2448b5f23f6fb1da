import FoundationEssentials
import OpenWidgetKit
import Testing
@testable import WidgetGraphics
import WidgetLayout

/// The accessory families drawn as iOS draws them on a Lock Screen: clipped to their shape,
/// `accessoryInline` one line, `AccessoryWidgetBackground` a translucent disc.
private let fixedNow = Date(timeIntervalSince1970: 1_773_569_400)  // 2026-03-15 10:10:00 UTC

private func accessoryImage<V: View>(_ view: V, _ family: WidgetFamily, backdrop: Bool = false) throws -> PixelImage {
    _ = PinnedFonts.configured
    let root = ViewEvaluator.evaluate(view, environment: EnvironmentValues())
    let options = PictureOptions(scale: 1, now: fixedNow, accessoryBackdrop: backdrop)
    return try #require(PixelImage.decodePNG(PictureRenderer().render(root, family: family, format: .png, options: options).bytes))
}

/// Alpha of the pixel at (x, y).
private func alpha(_ image: PixelImage, _ x: Int, _ y: Int) -> Int { Int(image.pixels[y * image.width + x] >> 24) }

@Test func accessoryFamiliesAreClippedToTheirShape() throws {
    // A colour far larger than the widget: inside the shape it is drawn, outside nothing is.
    let huge = Color.white.frame(width: 400, height: 400)
    let circle = try accessoryImage(huge, .accessoryCircular)
    #expect(alpha(circle, 38, 38) == 255)
    #expect(alpha(circle, 1, 1) == 0)       // the corner of the square, outside the circle
    #expect(alpha(circle, 75, 75) == 0)
    let band = try accessoryImage(huge, .accessoryRectangular)
    #expect(alpha(band, 80, 38) == 255)
    #expect(alpha(band, 0, 0) == 0)         // outside the 12 pt rounded corner
    #expect(alpha(band, 159, 75) == 0)
}

@Test func accessoryInlineDrawsOneLineInsideTheBand() throws {
    // HelloC's inline view: two texts in a VStack. Only the first is drawn, on one line; the
    // second line (which would start 20 pt down, outside the 20 pt band) is not.
    let two = try accessoryImage(VStack { Text("Hello"); Text("World") }, .accessoryInline)
    let one = try accessoryImage(Text("Hello"), .accessoryInline)
    #expect(two.differingPixels(from: one, threshold: 0) == 0)
    #expect(two.pixels.contains { $0 >> 24 != 0 })
}

@Test func accessoryWidgetBackgroundIsATranslucentDiscAndNothingElseIsBacked() throws {
    // Asked for: a white disc at 20 % (alpha 51) in the circle, nothing outside it.
    let backed = try accessoryImage(ZStack { AccessoryWidgetBackground(); Text("") }, .accessoryCircular)
    #expect(abs(alpha(backed, 38, 38) - 51) <= 2)
    #expect(abs(alpha(backed, 5, 38) - 51) <= 2)
    #expect(alpha(backed, 1, 1) == 0)
    let band = try accessoryImage(AccessoryWidgetBackground(), .accessoryRectangular)
    #expect(abs(alpha(band, 80, 38) - 51) <= 2 && alpha(band, 0, 0) == 0)
    // Not asked for: no backing at all (iOS floats the widget on the wallpaper).
    let bare = try accessoryImage(Text("·"), .accessoryCircular)
    #expect(alpha(bare, 5, 38) == 0 && alpha(bare, 38, 10) == 0)
    // The dark stand-in for a wallpaper is an option.
    #expect(alpha(try accessoryImage(Text("·"), .accessoryCircular, backdrop: true), 5, 38) == 255)
}
