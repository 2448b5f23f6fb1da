import FoundationEssentials
import Testing
@testable import OpenWidgetKit

/// Every number a plugin sends is held to a range when its answer is decoded (issue 15): a date
/// of "nan" or "-inf" trapped the host where it was first converted, and again at every restart.
@Suite struct WireValidationTests {
    func decode(_ json: String) -> Result<WireResponse, any Error> { Result { try WireCodec.decodeResponse(Data(json.utf8)) } }

    func problem(_ json: String) -> String? {
        guard case .failure(let e) = decode(json) else { return nil }
        return (e as? WireValidationError)?.problem ?? "not a validation error: \(e)"
    }

    func entry(_ date: String = "1800000000", view: String = #"{"kind":"text"}"#, policy: String = #"{"type":"never"}"#) -> String {
        #"{"ok":true,"entries":[{"date":\#(date),"view":\#(view)}],"policy":\#(policy)}"#
    }

    @Test(arguments: [
        (#""nan""#, "entry 0: date is nan"),
        (#""-inf""#, "entry 0: date is -inf"),
        (#""inf""#, "entry 0: date is inf"),
        ("1e300", "entry 0: date 1e+300 is out of range"),
    ])
    func aBadEntryDateIsRefused(_ date: String, _ expected: String) {
        #expect(problem(entry(date))?.hasPrefix(expected) == true, "\(String(describing: problem(entry(date))))")
    }

    @Test func badNumbersAnywhereAreRefusedWithTheirPath() {
        #expect(problem(entry(policy: #"{"type":"after","date":"-inf"}"#)) == "policy date is -inf (seconds since 1970)")
        #expect(problem(entry(view: #"{"kind":"gauge","value":"nan"}"#)) == "entry 0: view gauge: value is nan")
        #expect(problem(entry(view: #"{"kind":"vstack","children":[{"kind":"text"},{"kind":"gauge","bounds":[0,"inf"]}]}"#))
                == "entry 0: view vstack[1] > gauge: bounds[1] is inf")
        #expect(problem(entry(view: #"{"kind":"text","modifiers":{"frame":{"width":"inf"}}}"#)) == "entry 0: view text: frame.width is inf")
        #expect(problem(entry(view: #"{"kind":"text","modifiers":{"frame":{"maxWidth":"nan"}}}"#)) == "entry 0: view text: frame.maxWidth is nan")
        #expect(problem(entry(view: #"{"kind":"text","modifiers":{"font":{"style":"system","size":1e12}}}"#))?
            .hasPrefix("entry 0: view text: font.size 1000000000000.0 is out of range") == true)
        #expect(problem(entry(view: #"{"kind":"text","date":{"style":"timer","start":"nan"}}"#))?
            .hasPrefix("entry 0: view text: live date start is nan") == true)
        #expect(problem(#"{"ok":true,"entries":[{"date":1,"relevance":{"score":"nan","duration":0},"view":{"kind":"text"}}]}"#)
                == "entry 0: relevance score is nan")
        #expect(problem(#"{"ok":true,"entries":[{"date":1,"relevance":{"score":1,"duration":-5},"view":{"kind":"text"}}]}"#)?
            .hasPrefix("entry 0: relevance duration -5.0 is out of range") == true)
        #expect(problem(entry(view: #"{"kind":"shape","shape":{"type":"circle","fill":{"rgba":[0,"nan",0,1]}}}"#))
                == "entry 0: view shape: fill.rgba[1] is nan")
    }

    @Test func whatSwiftUIAllowsStillPasses() throws {
        // maxWidth: .infinity, distant dates, negative spacing and large gauge bounds are fine.
        let json = entry("-62135596800", view: #"{"kind":"gauge","value":5e20,"bounds":[0,2e21],"spacing":-4,"#
                         + #""modifiers":{"frame":{"maxWidth":"inf","maxHeight":"inf"}}}"#,
                         policy: #"{"type":"after","date":64092211200}"#)
        guard case .success(let r) = decode(json) else { Issue.record("\(decode(json))"); return }
        #expect(r.entries?.first?.view.modifiers?.frame?.maxWidth == .infinity)
        #expect(WireValidation.date(.distantFuture) == nil && WireValidation.date(.distantPast) == nil)
    }

    @Test func theErrorSaysWhatWasRefused() {
        let e = WireValidationError("entry 0: date is nan")
        #expect("\(e)" == "invalid number in the answer: entry 0: date is nan")
    }
}
