/// Terminal columns a string occupies, like `wcswidth`: per grapheme cluster, 0 for controls,
/// combining marks and other zero-width characters, 2 for East Asian wide/fullwidth characters
/// and emoji shown in emoji presentation, 1 otherwise. Every renderer counts columns with it.
/// Pure; safe from any thread.
public func displayWidth(of string: some StringProtocol) -> Int {
    if let w = string.utf8.withContiguousStorageIfAvailable(displayWidth(utf8:)) { return w }
    var copy = String(string)  // not contiguous UTF-8 (a foreign string): make it so once
    copy.makeContiguousUTF8()
    return copy.utf8.withContiguousStorageIfAvailable(displayWidth(utf8:)) ?? clusterWidth(copy)
}

/// The columns of the UTF-8 text `bytes`. Printable ASCII is one column per byte; the
/// per-cluster Unicode properties were a sixth of a clock tick's instructions (issue 16), and a
/// bar line is mostly ASCII with a symbol in front. Any other stretch is measured per grapheme
/// cluster, taken together with the printable ASCII byte on either side of it: UAX #29 always
/// breaks between two printable ASCII characters (neither is a Prepend, Extend, ZWJ,
/// SpacingMark, CR or LF), so a stretch cut there splits into the clusters the whole string has.
private func displayWidth(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Int {
    @inline(__always) func printable(_ b: UInt8) -> Bool { b >= 0x20 && b < 0x7F }
    let n = bytes.count
    var w = 0, i = 0
    while i < n {
        var j = i
        while j < n && printable(bytes[j]) { j += 1 }
        if j == n { return w + (n - i) }
        // bytes[j] is not printable ASCII: the stretch starts at the printable byte before it
        // (a cluster may start there: "e\u{301}") and ends after two printable bytes in a row.
        let start = j > i ? j - 1 : j
        w += start - i
        var end = j
        while end < n && !(printable(bytes[end]) && (end + 1 == n || printable(bytes[end + 1]))) { end += 1 }
        end = min(end + 1, n)
        w += clusterWidth(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self))
        i = end
    }
    return w
}

private func clusterWidth(_ s: String) -> Int {
    var w = 0
    for c in s { w += displayWidth(of: c) }
    return w
}

/// Terminal columns of one grapheme cluster (see `displayWidth(of:)` for strings).
public func displayWidth(of c: Character) -> Int {
    let scalars = c.unicodeScalars
    guard let first = scalars.first else { return 0 }
    // Emoji: an emoji-presentation base, or a text base forced with VS16.
    if first.properties.isEmojiPresentation { return 2 }
    if scalars.count > 1, scalars.contains(where: { $0.value == 0xFE0F }), first.properties.isEmoji,
       !(0x30...0x39).contains(first.value), first.value != 0x23, first.value != 0x2A {
        return 2
    }
    switch first.properties.generalCategory {
    case .control, .format, .nonspacingMark, .enclosingMark, .lineSeparator, .paragraphSeparator:
        // A zero-width base (e.g. a lone ZWJ or combining mark) adds nothing.
        return 0
    default: break
    }
    return isWide(first.value) ? 2 : 1
}

/// East Asian Wide and Fullwidth ranges (Unicode 15, abridged to the blocks in real use).
private func isWide(_ v: UInt32) -> Bool {
    switch v {
    case 0x1100...0x115F, 0x2329...0x232A, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF,
         0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF,
         0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6,
         0x1F200...0x1F2FF, 0x20000...0x2FFFD, 0x30000...0x3FFFD:
        return true
    default:
        return false
    }
}

extension String {
    /// This string cut to at most `width` columns; when something had to go, it ends in `"…"`.
    func truncated(toWidth width: Int) -> String {
        guard width > 0 else { return "" }
        if displayWidth(of: self) <= width { return self }
        var out = ""
        var w = 0
        for c in self {
            let cw = displayWidth(of: c)
            if w + cw > width - 1 { break }
            out.append(c); w += cw
        }
        // Drop a trailing space before the ellipsis ("Steps …" reads worse than "Steps…").
        while out.last == " " { out.removeLast() }
        return out + "…"
    }
}

extension String {
    /// This string cut to at most `width` columns with "…" where `mode` says (`truncationMode`):
    /// `head` keeps the end ("…ng text"), `middle` both ends ("lo…ext"), anything else the start.
    func truncated(toWidth width: Int, mode: String) -> String {
        guard width > 0 else { return "" }
        if displayWidth(of: self) <= width { return self }
        func tail(_ chars: [Character], _ budget: Int) -> String {
            var out: [Character] = []
            var w = 0
            for c in chars.reversed() {
                let cw = displayWidth(of: c)
                if w + cw > budget { break }
                out.append(c); w += cw
            }
            return String(out.reversed())
        }
        let chars = Array(self)
        switch mode {
        case "head":
            return "…" + tail(chars, width - 1).drop { $0 == " " }
        case "middle":
            let headWidth = (width - 1 + 1) / 2
            let head = String(truncated(toWidth: headWidth + 1).dropLast())
            return head + "…" + tail(chars, width - 1 - displayWidth(of: head)).drop { $0 == " " }
        default:
            return truncated(toWidth: width)
        }
    }
}
