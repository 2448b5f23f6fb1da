import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Reads a file a reader of `out/` (the desktop surface) did not write and must not trust:
/// anything that can write into `out/` can put a FIFO, a device, a link or a huge file where a
/// picture should be. The file is opened without blocking and without following a link
/// (`O_NONBLOCK | O_NOFOLLOW`: a FIFO with no writer cannot hold the caller), must be a regular
/// file, and is refused, unread, when it holds more than `limit` bytes. Pure function of the
/// file; any thread.
public enum OutFileReader {
    /// Why a file was not read.
    public enum Refusal: Error, Equatable, CustomStringConvertible {
        /// There is no such file (yet): nothing to say.
        case missing
        case cannotOpen(String)
        case notRegularFile
        case tooLarge(bytes: Int, limit: Int)

        public var description: String {
            switch self {
            case .missing: "no such file"
            case .cannotOpen(let reason): "cannot open it: \(reason)"
            case .notRegularFile: "not a regular file"
            case .tooLarge(let bytes, let limit): "\(bytes) bytes, over the limit of \(limit)"
            }
        }
    }

    /// The whole file at `path`, or why it was refused.
    public static func read(_ path: String, limit: Int) -> Result<Data, Refusal> {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENOENT { return .failure(.missing) }
            return .failure(.cannotOpen(errno == ELOOP ? "a symbolic link" : String(cString: strerror(errno))))
        }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { return .failure(.cannotOpen(String(cString: strerror(errno)))) }
        guard (st.st_mode & S_IFMT) == S_IFREG else { return .failure(.notRegularFile) }
        guard Int(st.st_size) <= limit else { return .failure(.tooLarge(bytes: Int(st.st_size), limit: limit)) }
        // The size is re-checked while reading: the file may grow between fstat and read.
        var out = Data(count: min(Int(st.st_size), limit) + 1)
        var count = 0
        while count < out.count {
            let n = out.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + count, $0.count - count) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 { return .failure(.cannotOpen(String(cString: strerror(errno)))) }
            if n == 0 { break }
            count += n
        }
        guard count <= limit else { return .failure(.tooLarge(bytes: count, limit: limit)) }
        out.count = count
        return .success(out)
    }
}
