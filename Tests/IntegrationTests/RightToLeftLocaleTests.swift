import FoundationEssentials
import Testing

/// Issue 28 item 10: a worker in a right-to-left locale (Hebrew here) evaluates the widget
/// with `\.layoutDirection == .rightToLeft` and marks its root so, which the host's layout
/// mirrors; in the C locale nothing is marked. The real `preview` and worker, the Habit example.
@Suite struct RightToLeftLocaleTests {
    func tree(_ locale: String) -> ProcessResult {
        run(TestPaths.widgethost, ["preview", TestPaths.plugin("HabitWidget"), "--kind", "MyAppWidget", "--family", "systemSmall",
                                   "--format", "json"], environment: ["LC_ALL": locale])
    }

    @Test func aHebrewLocaleLaysTheWidgetOutRightToLeft() {
        let hebrew = tree("he_IL.UTF-8"), c = tree("C")
        #expect(hebrew.status == 0 && c.status == 0, "\(hebrew.stderr)\(c.stderr)")
        #expect(hebrew.stdout.contains("rightToLeft"), "\(hebrew.stdout.prefix(2000))")
        #expect(!c.stdout.contains("rightToLeft") && c.stdout.contains("Drink Water"), "\(c.stdout.prefix(2000))")
    }
}
