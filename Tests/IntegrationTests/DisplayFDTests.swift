import Testing

/// `DisplayFD`: the display named by an X server's `-displayfd` output, on exact values.
@Suite struct DisplayFDTests {
    /// The flake's race: the output read as "" and, at the next look, as "12\n" (the server wrote
    /// in between). The display is ":12", from the read that saw the whole line; number and
    /// newline taken from two reads made it ":".
    @Test func theNumberAndTheNewlineComeFromTheSameRead() throws {
        var reads = ["", "12\n"][...]
        let display = try DisplayFD.display(printed: { reads.count > 1 ? reads.removeFirst() : reads.first! }, timeout: 10, server: "a server") { "" }
        #expect(display == ":12")
    }

    /// Only a whole line of digits is a display: nothing yet, digits without their newline, an
    /// empty line or other text are not.
    @Test func onlyAWholeLineOfDigitsIsADisplay() {
        #expect(DisplayFD.parse("7\n") == ":7")
        #expect(DisplayFD.parse("105\n") == ":105")
        for partial in ["", "1", "12", "\n", "x\n", "1 2\n", "١\n"] {
            #expect(DisplayFD.parse(partial) == nil, "\(partial.debugDescription)")
        }
    }
}
