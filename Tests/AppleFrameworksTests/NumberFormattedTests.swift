import Testing
import WidgetKit

/// Through `import WidgetKit`, `formatted()` and `formatted(.number / .percent / …)` on numbers
/// compile (Foundation and the SDK both declare them) and give the SDK's text, the text
/// `Text(n, format:)` shows.
@Suite struct NumberFormattedTests {
    @Test func numbersFormatAsTheSDKDoes() {
        #expect(12_345.formatted() == IntegerNumberFormatStyle<Int>().format(12_345))
        #expect(12_345.formatted(.number) == IntegerNumberFormatStyle<Int>().format(12_345))
        #expect(2.5.formatted() == FloatingPointNumberFormatStyle<Double>().format(2.5))
        let oneDecimal = FloatingPointNumberFormatStyle<Double>().precision(.fractionLength(1))
        #expect(5.27.formatted(.number.precision(.fractionLength(1))) == oneDecimal.format(5.27))
        #expect(oneDecimal.format(5.27).hasSuffix("3"), "rounded to one decimal")
        #expect(0.25.formatted(.percent) == FloatingPointNumberFormatStyle<Double>.percent.format(0.25))
        #expect(0.25.formatted(.percent).contains("25"))
    }
}
