#if canImport(Glibc)
import Glibc
#endif

/// The project's executables are installed side by side (`widgethost`, `widgethost-worker`,
/// `widgethost-render`, `widgethost-desktop`): each finds the others in the directory of its own
/// executable. Pure function, any thread.
public enum SiblingExecutable {
    /// `name` in the directory of this process's executable (symlinks resolved).
    public static func path(_ name: String) -> String {
        let exe = ownPath()
        return String(exe[..<(exe.lastIndex(of: "/") ?? exe.startIndex)]) + "/" + name
    }

    /// This process's executable (symlinks resolved; empty when `/proc` cannot say).
    public static func ownPath() -> String {
        var buf = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buf, buf.count - 1)
        return String(decoding: buf[0..<max(0, n)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
