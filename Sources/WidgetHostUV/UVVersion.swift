import CLibUV

/// The libuv this binary runs against (`uv_version_string()`: the shared library's version, which
/// may be newer than the headers it was built with).
public enum UVVersion {
    public static var string: String { String(cString: uv_version_string()) }
}
