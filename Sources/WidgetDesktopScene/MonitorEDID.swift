/// A monitor's identity read from its EDID (VESA E-EDID 1.3/1.4 base block): make (the PNP
/// manufacturer id, named from hwdata's `pnp.ids` where that table is given), model (the
/// display name descriptor, else the product code in hex) and serial (the serial descriptor,
/// else the numeric serial; empty when it is 0). The X11 backend reads it from the RandR output
/// property `EDID`; wlroots compositors tell the same through `wl_output`/xdg-output.
///
/// Pure value; any thread.
public struct MonitorEDID: Equatable, Sendable {
    public var make: String
    public var model: String
    public var serial: String

    public init(make: String, model: String, serial: String) { self.make = make; self.model = model; self.serial = serial }

    /// Parses the first 128 bytes of `bytes`; nil when they are not an EDID base block (wrong
    /// header, too short) or name no manufacturer. `manufacturers`: PNP id → company name.
    public init?(_ bytes: [UInt8], manufacturers: [String: String] = [:]) {
        guard bytes.count >= 128, Array(bytes[0..<8]) == [0, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0] else { return nil }
        let id = UInt16(bytes[8]) << 8 | UInt16(bytes[9])
        let letters = [(id >> 10) & 31, (id >> 5) & 31, id & 31]
        guard letters.allSatisfy({ (1...26).contains($0) }) else { return nil }
        let code = String(String.UnicodeScalarView(letters.map { Unicode.Scalar(UInt8(64 + $0)) }))
        make = manufacturers[code] ?? code
        var name = "", serialText = ""
        for offset in stride(from: 54, to: 126, by: 18) where bytes[offset] == 0 && bytes[offset + 1] == 0 && bytes[offset + 2] == 0 {
            let text = Self.text(bytes[(offset + 5)..<(offset + 18)])
            if bytes[offset + 3] == 0xFC { name = text } else if bytes[offset + 3] == 0xFF { serialText = text }
        }
        let product = UInt16(bytes[11]) << 8 | UInt16(bytes[10])
        let number = UInt32(bytes[15]) << 24 | UInt32(bytes[14]) << 16 | UInt32(bytes[13]) << 8 | UInt32(bytes[12])
        model = name.isEmpty ? "0x" + String(product, radix: 16, uppercase: true) : name
        serial = !serialText.isEmpty ? serialText : number == 0 ? "" : String(number)
    }

    /// A descriptor's text: printable ASCII up to the line feed that ends it, trailing spaces dropped.
    private static func text(_ bytes: ArraySlice<UInt8>) -> String {
        let printable = bytes.prefix { $0 != 0x0A }.filter { (0x20...0x7E).contains($0) }
        var s = String(decoding: printable, as: UTF8.self)
        while s.last == " " { s.removeLast() }
        return s
    }

    /// hwdata's `pnp.ids` ("DEL\tDell Inc." per line) as a table; empty for anything else.
    public static func manufacturers(fromPNPIDs text: String) -> [String: String] {
        var table: [String: String] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: "\t", maxSplits: 1)
            guard parts.count == 2, parts[0].count == 3 else { continue }
            table[String(parts[0])] = String(parts[1])
        }
        return table
    }
}
