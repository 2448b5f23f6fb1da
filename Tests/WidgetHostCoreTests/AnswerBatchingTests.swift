import FoundationEssentials
import Testing
@testable import WidgetHostCore

@Suite struct AnswerBatchingTests {
    let clock = Data(#"{"kind":"clock","op":"timeline"}"#.utf8)
    let weather = Data(#"{"kind":"weather","op":"timeline"}"#.utf8)

    @Test func answersWaitOnlyForRequestsKnownToBeQuick() {
        var b = AnswerBatching()
        #expect(!b.mayWait(for: clock), "a request never seen may take long: what is gathered goes first")
        b.record(clock, nanoseconds: 200_000)
        b.record(weather, nanoseconds: 350_000_000)
        #expect(b.mayWait(for: clock))
        #expect(!b.mayWait(for: weather), "a slow provider never holds back the answers before it")
        b.record(clock, nanoseconds: AnswerBatching.quickNanoseconds)
        #expect(!b.mayWait(for: clock), "the bound is exclusive")
        b.record(weather, nanoseconds: 10_000)
        #expect(b.mayWait(for: weather), "the last call counts")
    }

    @Test func memoryIsBounded() {
        var b = AnswerBatching(capacity: 2)
        b.record(clock, nanoseconds: 1)
        b.record(weather, nanoseconds: 1)
        b.record(clock, nanoseconds: 2)     // known: no reset
        #expect(b.mayWait(for: clock) && b.mayWait(for: weather))
        b.record(Data("third".utf8), nanoseconds: 1)
        #expect(!b.mayWait(for: clock) && b.mayWait(for: Data("third".utf8)), "full: forgets and starts again")
    }
}
