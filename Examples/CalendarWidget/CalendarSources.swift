import FoundationEssentials
import Glibc

/// One calendar: a folder of one-event `.ics` files (vdirsyncer's and khal's layout:
/// `~/.local/share/calendars/<calendar>/*.ics`, with optional `displayname` and `color` files
/// written by `vdirsyncer metasync`), or a single `.ics` file.
struct CalendarSource: Equatable, Sendable {
    /// The folder's or the file's path (the id the Edit Widget form stores: `CalendarEntity`).
    var id: String = ""
    var name: String
    var color: String
    var files: [String]
    /// The name the free-text `calendars` parameter matched before it was a picker: the
    /// folder's `displayname` or name, a file's name without `.ics` (old configs keep working).
    var plainName: String = ""
}

/// Finds the calendars under the folders the bundle declares (`CalendarPaths`). Reads the disk;
/// call from the provider's thread.
enum CalendarSources {
    /// The colours Apple's Calendar gives new calendars, in order, for a calendar without one.
    static let palette = ["#FF3B30", "#007AFF", "#34C759", "#FF9500", "#AF52DE", "#FFCC00", "#A2845E"]
    /// Larger files are skipped (a calendar file is kilobytes; a hostile one is not read whole).
    static let maxFileBytes = 8 << 20

    /// The calendars found under `roots`: a root that is an `.ics` file is one calendar; a
    /// folder with `.ics` files is one; each sub-folder of a root is one (khal's layout). Missing
    /// roots are skipped. Sorted by name.
    static func discover(roots: [String]) -> [CalendarSource] {
        var found: [CalendarSource] = []
        for root in roots {
            if isDirectory(root) {
                if let own = folder(root) { found.append(own) }
                for sub in list(root) where isDirectory(root + "/" + sub) && !sub.hasPrefix(".") {
                    if let cal = folder(root + "/" + sub) { found.append(cal) }
                }
            } else if root.hasSuffix(".ics"), access(root, R_OK) == 0 {
                let base = String(String(root.split(separator: "/").last ?? "calendar").dropLast(4))
                let header: (name: String?, color: String?) = read(root).map(calendarHeader) ?? (nil, nil)
                found.append(CalendarSource(id: root, name: header.name ?? base, color: header.color ?? "", files: [root], plainName: base))
            }
        }
        found.sort { $0.name < $1.name }
        // Calendars without a colour take the palette's in turn, skipping the ones already taken.
        var free = palette.filter { p in !found.contains { $0.color == p } }
        if free.isEmpty { free = palette }
        var next = 0
        for i in found.indices where found[i].color.isEmpty { found[i].color = free[next % free.count]; next += 1 }
        return found
    }

    /// The calendar in `dir` when it holds `.ics` files: named by its `displayname` file or the
    /// folder's name, coloured by its `color` file.
    static func folder(_ dir: String) -> CalendarSource? {
        let files = list(dir).filter { $0.hasSuffix(".ics") && !$0.hasPrefix(".") }.sorted().map { dir + "/" + $0 }
        guard !files.isEmpty else { return nil }
        let name = firstLine(dir + "/displayname") ?? String(dir.split(separator: "/").last ?? "calendar")
        let color = firstLine(dir + "/color").flatMap(normalizedColor) ?? ""
        return CalendarSource(id: dir, name: name, color: color, files: files, plainName: name)
    }

    /// A whole-calendar file's own name and colour (`X-WR-CALNAME`, `X-APPLE-CALENDAR-COLOR`,
    /// as Apple's and Google's exports write them), from the lines before its first component.
    /// Folded lines are unfolded; parameters (`X-WR-CALNAME;VALUE=TEXT:`) are skipped.
    static func calendarHeader(_ text: String) -> (name: String?, color: String?) {
        var name: String?, color: String?
        var lines: [String] = []
        for raw in text.split(omittingEmptySubsequences: true, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            let line = raw.hasSuffix("\r") ? String(raw.dropLast()) : String(raw)
            if line.hasPrefix(" ") || line.hasPrefix("\t"), !lines.isEmpty { lines[lines.count - 1] += line.dropFirst(); continue }
            if line.hasPrefix("BEGIN:"), line != "BEGIN:VCALENDAR" { break }
            lines.append(line)
        }
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let key = line[..<colon].split(separator: ";").first.map { $0.uppercased() } ?? ""
            let value = trimmed(String(line[line.index(after: colon)...])).replacing("\\,", with: ",").replacing("\\;", with: ";")
            if key == "X-WR-CALNAME", !value.isEmpty { name = value }
            if key == "X-APPLE-CALENDAR-COLOR" { color = normalizedColor(value) }
        }
        return (name, color)
    }

    /// `#RRGGBB` from `#RRGGBB` or `#RRGGBBAA` (CalDAV's colours carry alpha), else nil.
    static func normalizedColor(_ s: String) -> String? {
        let hex = trimmed(s)
        guard hex.hasPrefix("#"), hex.count == 7 || hex.count == 9,
              hex.dropFirst().allSatisfy({ $0.isHexDigit }) else { return nil }
        return String(hex.prefix(7)).uppercased()
    }

    static func read(_ path: String) -> String? {
        guard let f = fopen(path, "r") else { return nil }
        defer { fclose(f) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = fread(&chunk, 1, chunk.count, f)
            if n == 0 { break }
            bytes.append(contentsOf: chunk[..<n])
            if bytes.count > maxFileBytes { return nil }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    static func firstLine(_ path: String) -> String? {
        guard let text = read(path) else { return nil }
        let line = text.split(whereSeparator: \.isNewline).first.map { trimmed(String($0)) }
        return line?.isEmpty == false ? line : nil
    }

    static func trimmed(_ s: String) -> String {
        String(s.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }

    static func isDirectory(_ path: String) -> Bool {
        var st = stat()
        return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR
    }

    static func list(_ dir: String) -> [String] {
        guard let d = opendir(dir) else { return [] }
        defer { closedir(d) }
        var names: [String] = []
        while let e = readdir(d) {
            let name = withUnsafeBytes(of: e.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }
}

/// Where the calendars are: the folders the bundle declares (`filesystems` in its entry point),
/// resolved as the host resolves them, in the worker's environment. Pure.
enum CalendarPaths {
    static let declared = ["xdg-data/calendars:ro", "~/.calendars:ro", "~/.calendar.ics:ro"]

    static func roots(environment: [String: String] = ProcessInfo.processInfo.environment) -> [String] {
        let home = environment["HOME"] ?? ""
        let data = environment["XDG_DATA_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? home + "/.local/share"
        var roots = [data + "/calendars", home + "/.calendars", home + "/.calendar.ics"]
        // Folders the person granted the bundle in config.json (`filesystems`), passed by the host.
        if let granted = environment["WIDGETHOST_GRANTED_PATHS"] {
            roots += granted.split(separator: "\n").map(String.init).filter { $0.hasPrefix("/") }
        }
        return roots
    }
}
