import CCairo

/// The drawing libraries the lean surface runs on, for `--version`. Any thread.
public enum DrawingLibraries {
    /// "Cairo 1.16.0, Pango 1.50.12".
    public static var versions: String {
        "Cairo \(String(cString: cairo_version_string())), Pango \(String(cString: pango_version_string()))"
    }
}
