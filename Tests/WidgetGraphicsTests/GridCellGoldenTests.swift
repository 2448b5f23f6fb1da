import FoundationEssentials
import OpenWidgetKit
import Testing
@testable import WidgetGraphics
import WidgetLayout
#if canImport(Glibc)
import Glibc
#endif

/// Picture goldens of issue 27's grid cells and `.dateTime` fields: a month calendar on a `Grid`
/// whose title spans the seven columns (`gridCellColumns`), day numbers right-aligned in their
/// columns (`gridColumnAlignment`), marks anchored in their cells (`gridCellAnchor`), and the
/// weekday names and day numbers as `.dateTime` fields in the picture's locale (en_US and
/// de_DE). Scale 2, compared with `Fixtures/grid-cells/<name>.png` with the example goldens'
/// tolerance (40 per channel, 0.2 % of the pixels). Each golden was looked at before it was
/// committed; to re-record after an intended change: `WIDGETHOST_UPDATE_GOLDENS=1 swift test
/// --skip-build --filter GridCellGoldenTests`, then look at every changed picture.
private let fixedNow = Date(timeIntervalSince1970: 1_795_371_000)  // Sunday 2026-11-22 18:10 UTC

/// The week of 22 November 2026 (Sunday first), a title over it and a row of marks.
private func calendar() -> some View {
    let day = 86_400.0
    let days = (0..<7).map { fixedNow.addingTimeInterval(Double($0) * day) }
    return Grid(horizontalSpacing: 6, verticalSpacing: 6) {
        GridRow {
            Text(fixedNow, format: .dateTime.month(.wide).year())
                .font(.headline)
                .gridCellColumns(7)
        }
        GridRow {
            ForEach(0..<7, id: \.self) { i in
                Text(days[i], format: .dateTime.weekday(.abbreviated))
                    .font(.caption2)
                    .foregroundStyle(.secondary)
            }
        }
        GridRow {
            ForEach(0..<7, id: \.self) { i in
                Text(days[i], format: .dateTime.day())
                    .font(.body.monospacedDigit())
                    .gridColumnAlignment(.trailing)
            }
        }
        GridRow {
            Circle().fill(Color.orange).frame(width: 8, height: 8).gridCellAnchor(.topLeading)
            Circle().fill(Color.blue).frame(width: 8, height: 8).gridCellAnchor(.bottomTrailing)
            Capsule().fill(Color.green).frame(height: 8).gridCellColumns(3)
            Color.clear.frame(width: 1, height: 20)
            Circle().fill(Color.red).frame(width: 8, height: 8)
        }
    }
    .containerBackground(.background, for: .widget)
}

@Test(arguments: [("calendar-grid-enUS-systemMedium", LocaleFormats.enUS), ("calendar-grid-deDE-systemMedium", LocaleFormats.deDE)])
private func gridCellsAndDateFieldsMatchTheirGoldens(_ name: String, _ locale: LocaleFormats) throws {
    _ = PinnedFonts.configured
    setenv("TZ", "UTC", 1); tzset()
    let options = PictureOptions(scale: 2, now: fixedNow)
    let tree = ViewEvaluator.evaluate(calendar(), environment: EnvironmentValues())
    let png = try PictureRenderer(locale: locale).render(tree, family: .systemMedium, format: .png, options: options).bytes
    try GoldenFiles.check(png, folder: "grid-cells", name: name)
}
