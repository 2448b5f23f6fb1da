import Testing
import FoundationEssentials
@testable import OpenWidgetKit

// Dates and numbers in the user's locale, as Apple's formatters print them (issue 13).
// Every test names its locale; none reads the machine's.

@Test func localeComesFromLCAllThenTheCategoryThenLang() {
    func env(_ values: [String: String]) -> (String) -> String? { { values[$0] } }
    #expect(LocaleFormats.resolve(category: "LC_TIME", environment: env(["LANG": "de_DE.UTF-8"])) == .deDE)
    #expect(LocaleFormats.resolve(category: "LC_TIME", environment: env(["LANG": "de_DE.UTF-8", "LC_TIME": "en_US.UTF-8"])) == .enUS)
    #expect(LocaleFormats.resolve(category: "LC_TIME", environment: env(["LC_ALL": "fr_FR", "LC_TIME": "en_US.UTF-8"])) == .frFR)
    #expect(LocaleFormats.resolve(category: "LC_NUMERIC", environment: env(["LC_TIME": "de_DE", "LANG": "en_GB.UTF-8"])) == .enGB)
    #expect(LocaleFormats.resolve(category: "LC_TIME", environment: env([:])) == .posix)
    #expect(LocaleFormats.resolve(category: "LC_TIME", environment: env(["LANG": "C.UTF-8"])) == .posix)
    #expect(LocaleFormats.named("de_AT.UTF-8") == .deDE)     // same language
    #expect(LocaleFormats.named("es-ES") == .esES)
    #expect(LocaleFormats.named("ja_JP.UTF-8") == .posix)    // not in the table
}

@Test func timesAndDatesAsApplePrintsThem() {
    #expect(LocaleFormats.enUS.time(hour: 18, minute: 10) == "6:10 PM")
    #expect(LocaleFormats.enUS.time(hour: 0, minute: 5) == "12:05 AM")
    #expect(LocaleFormats.enUS.time(hour: 12, minute: 0) == "12:00 PM")
    #expect(LocaleFormats.deDE.time(hour: 18, minute: 10) == "18:10")
    #expect(LocaleFormats.posix.time(hour: 8, minute: 3) == "08:03")
    #expect(LocaleFormats.enUS.longDate(day: 22, month: 11, year: 2026) == "November 22, 2026")
    #expect(LocaleFormats.deDE.longDate(day: 22, month: 11, year: 2026) == "22. November 2026")
    #expect(LocaleFormats.enGB.longDate(day: 22, month: 11, year: 2026) == "22 November 2026")
    #expect(LocaleFormats.frFR.longDate(day: 1, month: 3, year: 2027) == "1 mars 2027")
    #expect(LocaleFormats.esES.longDate(day: 1, month: 3, year: 2027) == "1 de marzo de 2027")
    #expect(LocaleFormats.posix.longDate(day: 22, month: 11, year: 2026) == "22 Nov 2026")
}

@Test func numbersInAnExplicitLocale() {
    let de = Locale(identifier: "de_DE")
    let us = Locale(identifier: "en_US")
    #expect(Text(10_432, format: .number.locale(us)).plainText == "10,432")
    #expect(Text(10_432, format: .number.locale(de)).plainText == "10.432")
    #expect(Text(7.25, format: .number.locale(de)).plainText == "7,25")
    #expect(Text(1_234_567.5, format: .number.precision(.fractionLength(1)).locale(de)).plainText == "1.234.567,5")
    #expect(Text(0.62, format: .percent.locale(de)).plainText == "62\u{A0}%")
    #expect(Text(0.62, format: .percent.locale(us)).plainText == "62%")
    #expect(Text(1234.5, format: .currency(code: "EUR").locale(de)).plainText == "1.234,50\u{A0}€")
    #expect(Text(1234.5, format: .currency(code: "USD").locale(us)).plainText == "$1,234.50")
    #expect(Text(10_432, format: .number.locale(Locale(identifier: "fr_FR"))).plainText == "10\u{202F}432")
}
