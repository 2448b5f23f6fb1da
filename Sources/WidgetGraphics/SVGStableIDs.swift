/// Cairo names some SVG elements after a counter shared by the whole process (`surface21`,
/// `image7`: every surface the process creates takes the next number), so the same picture drawn
/// twice by one long-lived render process gave different bytes, and "write only when changed"
/// rewrote every SVG. This renumbers those ids in order of first appearance (`surface1`,
/// `surface2`…), which keeps each reference pointing at its element and makes the bytes depend on
/// the picture alone. Other ids (`clip3`, `glyph0-1`) are numbered per document already.
///
/// Pure function of its input; safe on any thread.
enum SVGStableIDs {
    static let prefixes: [[UInt8]] = [Array("surface".utf8), Array("image".utf8)]

    static func renumber(_ svg: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(svg.count)
        var maps: [[ArraySlice<UInt8>: Int]] = Array(repeating: [:], count: prefixes.count)
        var i = 0
        let n = svg.count
        scan: while i < n {
            // Ids appear as `id="surface5"` and references as `#surface5`.
            let c = svg[i]
            if c == UInt8(ascii: "\"") || c == UInt8(ascii: "#") {
                for (k, prefix) in prefixes.enumerated() {
                    let start = i + 1, digits = start + prefix.count
                    guard digits < n, svg[start..<digits].elementsEqual(prefix), isDigit(svg[digits]) else { continue }
                    var end = digits
                    while end < n, isDigit(svg[end]) { end += 1 }
                    let number = svg[digits..<end]
                    let stable = maps[k][number] ?? (maps[k].count + 1)
                    maps[k][number] = stable
                    out.append(c)
                    out.append(contentsOf: prefix)
                    out.append(contentsOf: Array(String(stable).utf8))
                    i = end
                    continue scan
                }
            }
            out.append(c)
            i += 1
        }
        return out
    }

    private static func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }
}
