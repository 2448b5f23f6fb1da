import Testing
import FoundationEssentials
@testable import OpenWidgetKit

// `Text + Text` keeps runs with their own style and live dates (issue 13).

@Test func styledConcatenationKeepsRunsAndTheLiveDate() {
    let date = Date(timeIntervalSince1970: 1_795_371_000)
    let n = eval(Text("Next: ") + Text(date, style: .time).bold())
    #expect(n.kind == .text)
    #expect(n.text == nil)
    let runs = n.childNodes
    #expect(runs.map(\.role) == ["run", "run"])
    #expect(runs[0].text == "Next: ")
    #expect(runs[0].modifiers == nil)
    #expect(runs[1].date == DateText(style: "time", date: date))
    #expect(runs[1].modifiers?.weight == "bold")
}

@Test func plainConcatenationStaysOneText() {
    #expect(eval(Text("a") + Text("b") + Text(verbatim: "c")) == eval(Text("abc")))
    // Same style on both sides merges too; different styles do not.
    #expect(eval(Text("a").bold() + Text("b").bold()).text == "ab")
    #expect(eval(Text("a").bold() + Text("b")).childNodes.count == 2)
}

@Test func aModifierOnAConcatenationStylesRunsThatSetNone() {
    let n = eval((Text("a").foregroundColor(.red) + Text("b")).foregroundColor(.blue).italic())
    #expect(n.childNodes[0].modifiers?.foreground?.name == "red")
    // The concatenation's own style is its node's: "b" inherits blue from it, as SwiftUI does.
    #expect(n.modifiers?.foreground?.name == "blue")
    #expect(n.modifiers?.italic == true)
    // Nested: ((a + b).bold() + c): the bold reaches a and b, not c.
    let nested = eval((Text("a").italic() + Text("b")).bold() + Text("c"))
    #expect(nested.childNodes.map { $0.modifiers?.weight } == ["bold", "bold", nil])
    #expect(nested.childNodes.map { $0.modifiers?.italic } == [true, nil, nil])
}

@Test func textModifiersStillReadAsBefore() {
    // Text's own modifiers return Text; the node is what the View modifiers produced.
    let n = eval(Text("x").font(.caption).font(.title).bold().padding(4))
    #expect(n.kind == .text)
    #expect(n.modifiers?.font?.style == "caption")
    #expect(n.modifiers?.weight == "bold")
    #expect(n.modifiers?.padding?.top == 4)
    #expect(eval(Text("u").underline()).modifiers?.other?["underline"] == .bool(true))
    let typed: Text = Text("a").bold() + Text("b").italic()   // compiles: styled operands are Text
    #expect(eval(typed).childNodes.count == 2)
}

@Test func interpolatedLiveDatesStayLiveRuns() {
    let date = Date(timeIntervalSince1970: 1_795_371_000)
    // SwiftUI keeps `\(date, style:)` live inside a string: the host formats it in the user's
    // locale at display time, not the plugin at evaluation.
    let n = eval(Text("Next: \(date, style: .time) today"))
    #expect(n.text == nil)
    #expect(n.childNodes.map(\.text) == ["Next: ", nil, " today"])
    #expect(n.childNodes[1].date == DateText(style: "time", date: date))
    // The same tree as the concatenation a porter used to write by hand.
    #expect(n == eval(Text("Next: ") + Text(date, style: .time) + Text(" today")))
    let end = date.addingTimeInterval(600)
    #expect(eval(Text("Ends \(timerInterval: date...end, countsDown: true)")).childNodes[1].date
            == DateText(style: "timer", start: date, end: end, countsDown: true))
    #expect(eval(Text("At \(date, format: .dateTime.hour().minute())")).childNodes[1].date?.style == "time")
    #expect(eval(Text("\(date...end)")).date == DateText(style: "range", start: date, end: end))
}

@Test func interpolatedStyledTextKeepsItsStyle() {
    let n = eval(Text("Steps: \(Text("10").bold()) of 12"))
    #expect(n.childNodes.map(\.text) == ["Steps: ", "10", " of 12"])
    #expect(n.childNodes.map { $0.modifiers?.weight } == [nil, "bold", nil])
    // Plain values stay one plain text, as before.
    #expect(eval(Text("a \(3) \(Text("b")) c")) == eval(Text(verbatim: "a 3 b c")))
    #expect(LocalizedStringKey("Next: \(Date(timeIntervalSince1970: 0), style: .time)").key == "Next: ")
}
