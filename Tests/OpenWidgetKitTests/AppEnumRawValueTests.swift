import FoundationEssentials
import Testing
@testable import OpenWidgetKit

/// As on iOS, an `AppEnum`'s raw value is any `LosslessStringConvertible` (`enum Goal: Int,
/// AppEnum`); on the wire and in `config.json` a case is its raw value as a string.
enum StepGoalFixture: Int, AppEnum {
    case relaxed = 6000, standard = 10000
    static let typeDisplayRepresentation: TypeDisplayRepresentation = "Goal"
    static let caseDisplayRepresentations: [StepGoalFixture: DisplayRepresentation] = [.relaxed: "6,000 steps", .standard: "10,000 steps"]
}

struct StepGoalFixtureIntent: WidgetConfigurationIntent {
    static let title: LocalizedStringResource = "Goal"
    @Parameter(title: "Goal", default: .standard) var goal: StepGoalFixture
}

@Suite struct AppEnumRawValueTests {
    @Test func anIntBackedEnumIsOfferedAndReadAsStrings() throws {
        #expect(StepGoalFixture.intentValueType == "enum")
        #expect(StepGoalFixture.intentValueOptions == [EnumOption(value: "6000", title: "6,000 steps"),
                                                       EnumOption(value: "10000", title: "10,000 steps")])
        #expect(StepGoalFixture.relaxed.intentValue == .string("6000"))
        #expect(StepGoalFixture(intentValue: .string("6000")) == .relaxed)
        #expect(StepGoalFixture(intentValue: .string("7000")) == nil, "a value no case has is refused")
        #expect(StepGoalFixture(intentValue: .string("many")) == nil, "a value that is no Int is refused")
        #expect(StepGoalFixture(intentValue: .number(6000)) == nil, "cases travel as strings")
    }
}
