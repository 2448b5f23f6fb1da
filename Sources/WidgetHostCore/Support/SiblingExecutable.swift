#if canImport(Glibc)
import Glibc
#endif

/// The project's executables are installed side by side (`widgethost`, `widgethost-worker`,
/// `widgethost-render`, `widgethost-desktop`): each finds the others in the directory of its own
/// executable. Pure function, any thread.
public enum SiblingExecutable {
    /// `name` in the directory of this process's executable (symlinks resolved).
    public static func path(_ name: String) -> String {
        var buf = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buf, buf.count - 1)
        let exe = String(decoding: buf[0..<max(0, n)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return String(exe[..<(exe.lastIndex(of: "/") ?? exe.startIndex)]) + "/" + name
    }
}
