import Testing
#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
@testable import OpenWidgetKit

@Test func numberFormattingEnUS() {
    #expect(Text(10432, format: .number).plainText == "10,432")
    #expect(Text(10432.0, format: .number).plainText == "10,432")
    #expect(Text(7.3, format: .number.precision(.fractionLength(1))).plainText == "7.3")
    #expect(Text(487, format: .number).plainText == "487")
    #expect(Text(487.4, format: .number.precision(.fractionLength(0))).plainText == "487")
    #expect(Text(1_234_567.891, format: .number.precision(.fractionLength(2))).plainText == "1,234,567.89")
    #expect(Text(7.0, format: .number.precision(.fractionLength(2))).plainText == "7.00")
    #expect(Text(0.5, format: .number.precision(.fractionLength(0))).plainText == "0")  // half-even
    #expect(Text(1.5, format: .number.precision(.fractionLength(0))).plainText == "2")
    #expect(Text(2.675, format: .number.precision(.fractionLength(2))).plainText == "2.68")
    #expect(Text(9.99, format: .number.precision(.fractionLength(1))).plainText == "10.0")
    #expect(Text(-1234.5, format: .number).plainText == "-1,234.5")
    #expect(Text(-0.2, format: .number.precision(.fractionLength(0))).plainText == "0")
    #expect(Text(0.000123, format: .number).plainText == "0.000123")
    #expect(Text(3.14159265, format: .number).plainText == "3.141593")
    #expect(Text(1e20, format: .number).plainText == "100,000,000,000,000,000,000")
    #expect(Text(0.256, format: .percent).plainText == "25.6%")
    #expect(Text(42, format: .percent).plainText == "42%")
    #expect(Text(12345, format: .number.grouping(.never)).plainText == "12345")
    #expect(Text(12_300, format: .number.notation(.compactName)).plainText == "12K")
    #expect(Text(1_500_000.0, format: .number.notation(.compactName)).plainText == "1.5M")
    #expect(Text(1234.5678, format: .number.precision(.significantDigits(3))).plainText == "1,230")
    #expect(Text(Double.nan, format: .number).plainText == "NaN")
    #expect(10432.formatted() == "10,432")
}

@Test func interpolationAndVerbatim() {
    let entryValue = 7.25
    #expect(Text("\(Int(0.42 * 100))%").plainText == "42%")
    #expect(Text("v=\(entryValue, format: .number.precision(.fractionLength(1)))").plainText == "v=7.2")
    #expect(Text(verbatim: "\\(raw)").plainText == "\\(raw)")
    let s: Substring = "sub"
    #expect(Text(s).plainText == "sub")
}

@Test func liveDatesStayLive() {
    let d = Date(timeIntervalSince1970: 1_700_000_000)
    let e = d.addingTimeInterval(3600)
    let rel = eval(Text(d, style: .relative))
    #expect(rel.text == nil)
    #expect(rel.date == DateText(style: "relative", date: d))
    #expect(eval(Text(d, style: .timer)).date?.style == "timer")
    #expect(eval(Text(d...e)).date == DateText(style: "range", start: d, end: e))
    #expect(eval(Text(timerInterval: d...e, countsDown: false)).date == DateText(style: "timer", start: d, end: e, countsDown: false))
    #expect(eval(ProgressView(timerInterval: d...e)).date == DateText(style: "progress", start: d, end: e, countsDown: true))
    #expect(eval(Text(d, format: .dateTime.hour().minute())).date?.style == "time")
    #expect(eval(Text(d, format: .dateTime.month().day())).date?.style == "date")
    // `format(_:)` gives the fields in this process's locale (`LC_TIME`) and time zone (here UTC).
    setenv("TZ", "UTC", 1); tzset()
    let t = CivilDateTime(year: 2023, month: 11, day: 14, weekday: 2, hour: 22, minute: 13, second: 20)
    #expect(DateTimeFormatStyle().year().month().day().format(d) == LocaleFormats.currentTime.format(DateFields(skeleton: "yMMMd"), t))
    #expect(DateTimeFormatStyle().hour().minute().format(d) == LocaleFormats.currentTime.format(DateFields(skeleton: "jm"), t))
}
