import FoundationEssentials
import OpenWidgetKit

/// Which monitor(s) a desktop widget goes on (`desktop.output`, `desktop.outputs` in
/// `config.json`; docs/desktop.md "Monitors"): `primary` (the display's primary monitor, the
/// first one where it names none), `all` (every monitor, each with its own grid), a connector
/// name (`DP-1`, `HDMI-A-1`, `eDP-1`; an X11 RandR monitor's name) or a monitor's identity, its
/// make, model and serial joined by spaces as sway names outputs (`Dell Inc. DELL U2720Q 9XKL2`).
/// The surface resolves it (`WidgetDesktopScene.OutputAssignment`); here it is only checked.
/// Pure; any thread.
public enum OutputSelector {
    public static let primary = "primary"
    public static let all = "all"

    /// The selector at `path`: a string of 1–200 characters without control characters.
    static func parse(_ v: JSONValue, at path: String) throws(ConfigError) -> String {
        let s = try ConfigParser.string(v, at: path)
        guard s.contains(where: { !$0.isWhitespace }) else {
            throw ConfigError(path: path, reason: "must name an output: \"primary\", \"all\", a connector such as \"DP-1\", or a monitor's \"make model serial\"")
        }
        guard s.count <= 200, !s.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            throw ConfigError(path: path, reason: "not an output name (at most 200 characters, no control characters)")
        }
        return s
    }
}
