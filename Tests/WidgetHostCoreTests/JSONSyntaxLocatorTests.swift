import FoundationEssentials
import Testing
@testable import WidgetHostCore

/// A config with a syntax error names the line and column (issue 15): JSONDecoder said only
/// "The given data was not valid JSON."
@Suite struct JSONSyntaxLocatorTests {
    func at(_ json: String) -> String? { JSONSyntaxLocator.locate(Data(json.utf8))?.description }

    @Test(arguments: [
        ("{\n  \"a\": [1, 2,\n\n  tru]}", "line 4, column 3: unexpected 't', expected a value (true, false and null are lower case; strings need quotes)"),
        ("{\"a\": 1 \"b\": 2}", "line 1, column 9: unexpected '\"', expected ',' or '}'"),
        ("{\n\t\"é\": \"x\n\"}", "line 2, column 9: a control character (byte 0xa) inside a string; write it as an escape like \\n"),
        ("{\"a\": 01}", "line 1, column 7: a number with a leading zero"),
        ("{\"a\": [1,]}", "line 1, column 10: a trailing ',' before ']'"),
        ("{\"a\": \"\\q\"}", "line 1, column 8: invalid escape '\\q' in a string"),
        ("{\"a\": 1", "line 1, column 8: unexpected end of file, expected ',' or '}'"),
        ("{a: 1}", "line 1, column 2: unexpected 'a', expected a key in quotes"),
        ("{} {}", "line 1, column 4: unexpected '{' after the end of the document"),
        ("", "line 1, column 1: unexpected end of file, expected a value"),
    ])
    func theFirstErrorIsLocated(_ json: String, _ expected: String) {
        #expect(at(json) == expected)
    }

    @Test func validJSONHasNoProblem() {
        #expect(at(#"{"a": [1, -2.5e+3, true, false, null, "\u00e9\n"], "b": {}}"#) == nil)
    }

    @Test func theConfigErrorCarriesTheLocation() {
        let e: ConfigError? = {
            do { _ = try ConfigParser.parse(Data("{\n  \"widgets\": [\n    {\"kind\": \"a\"}\n    {\"kind\": \"b\"}\n  ]\n}".utf8),
                                            baseDirectory: "/", environment: ["HOME": "/home/u"]); return nil }
            catch let e as ConfigError { return e } catch { return nil }
        }()
        #expect(e?.description == "not valid JSON: line 4, column 5: unexpected '{', expected ',' or ']'")
    }
}
