import FoundationEssentials
import Testing
@testable import OpenWidgetKit

/// `.dateTime` fields in every locale of the table (`LocaleFormats.known` and POSIX), on exact
/// strings: Wednesday 25 November 2026, 14:05:09, and a morning and a September date.
@Suite struct DateFieldsTests {
    static let afternoon = CivilDateTime(year: 2026, month: 11, day: 25, weekday: 3, hour: 14, minute: 5, second: 9)
    static let morning = CivilDateTime(year: 2026, month: 9, day: 5, weekday: 6, hour: 9, minute: 5, second: 0)
    static let midnight = CivilDateTime(year: 2027, month: 1, day: 1, weekday: 5, hour: 0, minute: 0, second: 0)

    func texts(_ locale: LocaleFormats, _ skeletons: [String], at t: CivilDateTime = afternoon) -> [String] {
        skeletons.map { locale.format(DateFields(skeleton: $0), t) }
    }

    static let skeletons = ["d", "MMMd", "yMMMd", "EEEE", "MMMM", "yMMMM", "EEEMMMd", "EEEEyMMMMd", "yMd", "Md", "jm", "jms", "j", "",
                            "MMMMdjm"]

    @Test func enUS() {
        #expect(texts(.enUS, Self.skeletons) == [
            "25", "Nov 25", "Nov 25, 2026", "Wednesday", "November", "November 2026", "Wed, Nov 25", "Wednesday, November 25, 2026",
            "11/25/2026", "11/25", "2:05 PM", "2:05:09 PM", "2 PM", "11/25/2026, 2:05 PM", "November 25, 2:05 PM"])
        #expect(texts(.enUS, ["jm", "MMMd"], at: Self.morning) == ["9:05 AM", "Sep 5"])
        #expect(texts(.enUS, ["jm", "EEEEE", "yy"], at: Self.midnight) == ["12:00 AM", "F", "27"])
    }

    @Test func enGB() {
        #expect(texts(.enGB, Self.skeletons) == [
            "25", "25 Nov", "25 Nov 2026", "Wednesday", "November", "November 2026", "Wed, 25 Nov", "Wednesday, 25 November 2026",
            "25/11/2026", "25/11", "14:05", "14:05:09", "14", "25/11/2026, 14:05", "25 November, 14:05"])
        #expect(texts(.enGB, ["jm", "MMMd", "yMd"], at: Self.morning) == ["09:05", "5 Sept", "05/09/2026"])
    }

    @Test func deDE() {
        #expect(texts(.deDE, Self.skeletons) == [
            "25", "25. Nov.", "25. Nov. 2026", "Mittwoch", "November", "November 2026", "Mi., 25. Nov.", "Mittwoch, 25. November 2026",
            "25.11.2026", "25.11.", "14:05", "14:05:09", "14 Uhr", "25.11.2026, 14:05", "25. November, 14:05"])
        #expect(texts(.deDE, ["MMMd", "EEE"], at: Self.morning) == ["5. Sept.", "Sa."])
    }

    @Test func frFR() {
        #expect(texts(.frFR, Self.skeletons) == [
            "25", "25 nov.", "25 nov. 2026", "mercredi", "novembre", "novembre 2026", "mer. 25 nov.", "mercredi 25 novembre 2026",
            "25/11/2026", "25/11", "14:05", "14:05:09", "14 h", "25/11/2026 14:05", "25 novembre 14:05"])
    }

    @Test func esES() {
        #expect(texts(.esES, Self.skeletons) == [
            "25", "25 nov", "25 nov 2026", "miércoles", "noviembre", "noviembre de 2026", "mié, 25 nov",
            "miércoles, 25 de noviembre de 2026", "25/11/2026", "25/11", "14:05", "14:05:09", "14", "25/11/2026, 14:05",
            "25 de noviembre, 14:05"])
    }

    @Test func posix() {
        #expect(texts(.posix, ["d", "MMMd", "EEEMMMd", "yMd", "jm", ""]) == ["25", "25 Nov", "Wed 25 Nov", "25/11/2026", "14:05",
                                                                             "25/11/2026 14:05"])
    }

    @Test func skeletonsRoundTripInAFixedOrder() {
        #expect(DateFields(skeleton: "jmEEEEdMMM").skeleton == "EEEEMMMdjm")
        #expect(DateFields(skeleton: "Hmx").skeleton == "jm", "H counts as the hour; unknown letters are skipped")
        #expect(DateFields(skeleton: "").isEmpty)
    }

    @Test func theStyleMethodsMakeTheSkeleton() {
        #expect(DateTimeFormatStyle.dateTime.weekday(.wide).skeleton == "EEEE")
        #expect(DateTimeFormatStyle.dateTime.month().day().skeleton == "MMMd")
        #expect(DateTimeFormatStyle.dateTime.month(.wide).year().skeleton == "yMMMM")
        #expect(DateTimeFormatStyle.dateTime.month(.twoDigits).day(.twoDigits).skeleton == "MMdd")
        #expect(DateTimeFormatStyle.dateTime.hour().minute().second().skeleton == "jms")
        #expect(DateTimeFormatStyle.dateTime.skeleton == "yMdjm")
        #expect(DateTimeFormatStyle.dateTime.hour().minute().liveStyle == "time")
        #expect(DateTimeFormatStyle.dateTime.day().hour().liveStyle == "date")
    }

    @Test func aDateTimeTextIsALiveNodeWithItsFields() {
        let d = Date(timeIntervalSince1970: 0)
        #expect(Text(d, format: .dateTime.weekday(.wide)).date == DateText(style: "date", date: d, fields: "EEEE"))
        #expect(Text(d, format: .dateTime.hour().minute()).date == DateText(style: "time", date: d, fields: "jm"))
        #expect(Text(d, format: .dateTime).date == DateText(style: "date", date: d, fields: "yMdjm"))
    }
}
