import FoundationEssentials
import Glibc

/// One calendar: a folder of one-event `.ics` files (vdirsyncer's and khal's layout:
/// `~/.local/share/calendars/<calendar>/*.ics`, with optional `displayname` and `color` files
/// written by `vdirsyncer metasync`), or a single `.ics` file.
struct CalendarSource: Equatable, Sendable {
    var name: String
    var color: String
    var files: [String]
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
                let base = String(root.split(separator: "/").last ?? "calendar").dropLast(4)
                found.append(CalendarSource(name: String(base), color: "", files: [root]))
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
        return CalendarSource(name: name, color: color, files: files)
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
