import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Key–value storage shared by an app, its scripts and its widgets: `UserDefaults(suiteName:)`
/// over an app group's container (`containers/<group>/defaults.json`).
///
/// Every write is a read–modify–write under an exclusive `flock` on `.defaults.lock`, written to
/// a temporary file and renamed, so concurrent writers (an app, `widgethost defaults write`, a
/// plugin's intent) never lose each other's keys and a reader never sees a torn file. Reads take
/// the current file each time (no cache to go stale across processes). No file in the container
/// is ever followed as a link (`ContainerDirectory`). Safe from any thread.
public final class SharedDefaults: @unchecked Sendable {
    public let suiteName: String
    public let directory: String
    /// The containers root `directory` is in.
    private let root: String

    /// nil when `suiteName` is not a valid group id (as `UserDefaults(suiteName:)` is nil for a bad suite).
    public init?(suiteName: String) {
        guard AppGroupContainer.isValidGroupID(suiteName), AppGroupContainer.url(forAppGroup: suiteName) != nil else { return nil }
        self.suiteName = suiteName
        self.root = AppGroupContainer.rootPath
        self.directory = root + "/" + suiteName
    }

    /// Container file names.
    public static let fileName = "defaults.json"
    static let lockName = ".defaults.lock"

    var filePath: String { directory + "/" + Self.fileName }

    // MARK: Reading

    /// All keys and values.
    public func dictionaryRepresentation() -> [String: JSONValue] { load() }

    public func value(forKey key: String) -> JSONValue? { load()[key] }

    public func object(forKey key: String) -> Any? { value(forKey: key).map(Self.toAny) }

    public func string(forKey key: String) -> String? {
        switch value(forKey: key) {
        case .string(let s): s
        case .number(let n): n.rounded() == n ? String(Int(n)) : String(n)
        case .bool(let b): b ? "1" : "0"
        default: nil
        }
    }

    /// 0 when absent or not convertible, as `UserDefaults.integer(forKey:)`.
    public func integer(forKey key: String) -> Int {
        switch value(forKey: key) {
        case .number(let n): n.isFinite && abs(n) < 9e18 ? Int(n) : 0
        case .string(let s): Int(s) ?? Double(s).map { $0.isFinite && abs($0) < 9e18 ? Int($0) : 0 } ?? 0
        case .bool(let b): b ? 1 : 0
        default: 0
        }
    }

    public func double(forKey key: String) -> Double {
        switch value(forKey: key) {
        case .number(let n): n
        case .string(let s): Double(s) ?? 0
        case .bool(let b): b ? 1 : 0
        default: 0
        }
    }

    public func bool(forKey key: String) -> Bool {
        switch value(forKey: key) {
        case .bool(let b): b
        case .number(let n): n != 0
        case .string(let s): ["1", "true", "yes", "YES", "TRUE"].contains(s)
        default: false
        }
    }

    public func array(forKey key: String) -> [Any]? { value(forKey: key)?.arrayValue?.map(Self.toAny) }
    public func dictionary(forKey key: String) -> [String: Any]? { value(forKey: key)?.objectValue?.mapValues(Self.toAny) }

    // MARK: Writing

    public func set(_ value: Int, forKey key: String) { update { $0[key] = .number(Double(value)) } }
    public func set(_ value: Double, forKey key: String) { update { $0[key] = .number(value) } }
    public func set(_ value: Bool, forKey key: String) { update { $0[key] = .bool(value) } }
    public func set(_ value: String, forKey key: String) { update { $0[key] = .string(value) } }
    public func set(_ value: JSONValue, forKey key: String) { update { $0[key] = value } }

    /// Stores a property-list-like value (numbers, strings, booleans, dates, arrays, dictionaries);
    /// nil removes the key. Other values are ignored, as UserDefaults refuses them.
    public func set(_ value: Any?, forKey key: String) {
        guard let value else { removeObject(forKey: key); return }
        guard let json = Self.fromAny(value) else { return }
        update { $0[key] = json }
    }

    public func removeObject(forKey key: String) { update { $0[key] = nil } }

    /// Applies `change` to the stored dictionary atomically with respect to every other writer.
    /// A failure is silent, as `UserDefaults.set` is; `commit` says what went wrong.
    public func update(_ change: (inout [String: JSONValue]) -> Void) { try? commit(change) }

    /// Why a write did not land (the container is not a writable folder, the disk is full…).
    public struct WriteError: Error, CustomStringConvertible {
        public let description: String
    }

    /// `update`, throwing when the change could not be written.
    ///
    /// Every file is reached under the container's descriptor and never followed as a link
    /// (`ContainerDirectory`): a plugin may have planted one for this unsandboxed writer.
    public func commit(_ change: (inout [String: JSONValue]) -> Void) throws(WriteError) {
        func failure(_ what: String) -> WriteError {
            WriteError(description: "cannot write \(what) in the container \(directory): \(String(cString: strerror(errno)))")
        }
        guard let container = openContainer() else { throw failure("the lock file") }
        defer { container.close() }
        let lockFD = container.openOrCreate(Self.lockName)
        guard lockFD >= 0 || errno == EACCES || errno == EROFS else { throw failure("the lock file") }
        if lockFD >= 0 { while flock(lockFD, LOCK_EX) != 0 && errno == EINTR {} }
        defer { if lockFD >= 0 { flock(lockFD, LOCK_UN); close(lockFD) } }
        var values: [String: JSONValue]
        switch read(container) {
        case .values(let v): values = v
        case .unusable:
            // Unreadable, not JSON, or not a plain file: keep it for a human instead of
            // overwriting it (a link is moved aside, not followed).
            _ = container.rename(Self.fileName, to: Self.fileName + ".corrupt-\(Int(Date().timeIntervalSince1970))")
            values = [:]
        }
        change(&values)
        guard let data = try? WireCodec.encoder().encode(values) else { throw WriteError(description: "the values cannot be encoded as JSON") }
        let tmp = ".defaults.\(getpid()).tmp"
        let fd = container.create(tmp)
        guard fd >= 0 else { throw failure("a temporary file") }
        let ok = data.withUnsafeBytes { raw -> Bool in
            var off = 0
            while off < raw.count {
                let n = write(fd, raw.baseAddress! + off, raw.count - off)
                if n < 0 { if errno == EINTR { continue }; return false }
                off += n
            }
            return true
        }
        guard close(fd) == 0, ok else { let e = failure("the values"); container.remove(tmp); throw e }
        guard container.rename(tmp, to: Self.fileName) else { let e = failure("the defaults file"); container.remove(tmp); throw e }
    }

    /// Largest defaults file read (a bigger file is read as empty and, on the next write, set aside as `.corrupt-<time>`).
    public static let maxFileSize = 4 << 20

    /// What the defaults file holds: its values (`[:]` when there is none yet), or why it cannot
    /// be used (over the size cap, not a JSON object, a link or not a plain file).
    public enum Stored: Equatable, Sendable {
        case values([String: JSONValue])
        case unusable(String)
    }

    /// The stored values, or why the file is refused (`widgethost defaults read` says so).
    public func stored() -> Stored {
        guard let container = openContainer() else { return .unusable("cannot open the container \(directory): \(String(cString: strerror(errno)))") }
        defer { container.close() }
        return read(container)
    }

    func load() -> [String: JSONValue] {
        if case .values(let v) = stored() { return v }
        return [:]
    }

    private func openContainer() -> ContainerDirectory? {
        ContainerDirectory(root: root, name: suiteName)
    }

    private func read(_ container: ContainerDirectory) -> Stored {
        let fd = container.openForReading(Self.fileName)
        guard fd >= 0 else {
            switch errno {
            case ENOENT: return .values([:])
            case ELOOP: return .unusable("\(filePath) is a symbolic link (refused)")
            case EPERM: return .unusable("\(filePath) is not a plain file with one name (refused)")
            default: return .unusable("cannot read \(filePath): \(String(cString: strerror(errno)))")
            }
        }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, Int(st.st_size) <= Self.maxFileSize else { return .unusable("\(filePath) is over \(Self.maxFileSize) bytes") }
        var bytes = [UInt8](repeating: 0, count: Int(st.st_size))
        var off = 0
        while off < bytes.count {
            let n = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + off, $0.count - off) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            off += n
        }
        if off == 0 { return .values([:]) }
        guard let values = try? WireCodec.decode([String: JSONValue].self, from: Data(bytes[0..<off])) else {
            return .unusable("\(filePath) is not a JSON object")
        }
        return .values(values)
    }

    static func toAny(_ v: JSONValue) -> Any {
        switch v {
        case .null: return Optional<Any>.none as Any
        case .bool(let b): return b
        case .number(let n): return n.rounded() == n && abs(n) < 9e15 ? Int(n) as Any : n as Any
        case .string(let s): return s
        case .array(let a): return a.map(toAny)
        case .object(let o): return o.mapValues(toAny)
        }
    }

    static func fromAny(_ v: Any) -> JSONValue? {
        switch v {
        case let j as JSONValue: return j
        case let b as Bool: return .bool(b)
        case let i as Int: return .number(Double(i))
        case let d as Double: return .number(d)
        case let f as Float: return .number(Double(f))
        case let s as String: return .string(s)
        case let d as Date: return .number(d.timeIntervalSince1970)
        case let a as [Any]:
            let items = a.compactMap(fromAny)
            return items.count == a.count ? .array(items) : nil
        case let o as [String: Any]:
            var out: [String: JSONValue] = [:]
            for (k, x) in o { guard let j = fromAny(x) else { return nil }; out[k] = j }
            return .object(out)
        default: return nil
        }
    }
}
