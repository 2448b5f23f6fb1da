/// A word as a POSIX shell reads it back: as it is when it holds only safe characters, else in
/// single quotes. Pure.
enum ShellWord {
    static func quote(_ s: String) -> String {
        let safe = !s.isEmpty && s.unicodeScalars.allSatisfy { c in
            (c >= "a" && c <= "z") || (c >= "A" && c <= "Z") || (c >= "0" && c <= "9") || "-_./=:,+@%".unicodeScalars.contains(c)
        }
        return safe ? s : "'" + s.replacing("'", with: #"'\''"#) + "'"
    }
}
