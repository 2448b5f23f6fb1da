import Testing

/// The display an X server started with `-displayfd 1` (stdout a file) names: it prints "N\n"
/// once it accepts connections. The number and the newline are taken from ONE read of that
/// file: read twice, the first saw "" and the second "1\n" (the server wrote in between), and
/// the display became ":", which no client can open (a CI flake: DesktopColorSchemeTests'
/// surface and portal, "cannot open a display"; 2 in 320 starts under load). Any thread.
enum DisplayFD {
    /// ":N" once `printed()` (the server's stdout so far) holds a line; throws when the server
    /// printed nothing within `timeout` or a line that is no display number, with `why()`.
    static func display(printed: () -> String, timeout: Double, server: String, why: () -> String) throws -> String {
        var line = ""
        try #require(eventually(timeout: timeout) { line = printed(); return line.hasSuffix("\n") }, "\(server) did not start:\n\(why())")
        let display = try #require(parse(line), "\(server) printed \(line.debugDescription), not a display number:\n\(why())")
        return display
    }

    /// ":N" for a whole line "N\n" of ASCII digits, nil for anything else (nothing yet, no newline yet).
    static func parse(_ printed: String) -> String? {
        guard printed.hasSuffix("\n") else { return nil }
        let number = printed.dropLast()
        return !number.isEmpty && number.allSatisfy({ $0.isASCII && $0.isNumber }) ? ":" + number : nil
    }
}
