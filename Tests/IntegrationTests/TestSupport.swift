import FoundationEssentials
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Paths and helpers shared by the integration tests, which run the real `widgethost` binary
/// and real plugin `.so` files built by `swift build` (scripts/test.sh builds them first).
enum TestPaths {
    /// The repository root (this file is Tests/IntegrationTests/TestSupport.swift).
    static let repoRoot: String = {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return parts.joined(separator: "/")
    }()

    /// The build products directory: where the test bundle itself lives.
    static let products: String = {
        var buf = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buf, buf.count - 1)
        let exe = String(decoding: buf[0..<max(0, n)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return String(exe[..<(exe.lastIndex(of: "/") ?? exe.endIndex)])
    }()

    static var widgethost: String { products + "/widgethost" }
    /// The worker executable the host starts (`WorkerExecutable`).
    static var worker: String { products + "/widgethost-worker" }

    static func plugin(_ product: String) -> String { products + "/lib\(product).so" }

    static let appleStyleProduct = "AppleStyleWidget"
    static let mainWidgetProduct = "MainWidgetFixture"
    /// An iOS widget extension as Xcode writes it, imports untouched (Tests/SwiftFixtures/XcodeStyleWidget).
    static let xcodeStyleProduct = "XcodeStyleWidget"
    static let exampleProducts = ["HabitWidget", "StatsWidget", "CardioBotWidgets", "ClockyWidget", "SystemWidgets", "NetworkDiskWidgets"]
    /// Widget extensions written as for iOS in Xcode, built untouched (Tests/SwiftFixtures/Corpus):
    /// each folder is a product of that name.
    static let corpusProducts = ["Hydration", "Errands", "StepCount", "WeeklyActivity", "Batteries", "MonthCalendar", "CoinTicker", "CityWeather", "PlantCare"]
}

/// A fresh temporary directory, removed by `remove()`.
struct TempDir {
    let path: String
    init() {
        var template = Array("/tmp/widgethost-test-XXXXXX".utf8CString)
        path = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
    }
    func remove() { _ = run("/bin/rm", ["-rf", path]) }
}

struct ProcessResult {
    var status: Int32
    var stdout: String
    var stderr: String
}

/// Runs a program to completion and captures its output (through temp files, so a large output
/// cannot deadlock the pipe).
@discardableResult
func run(_ program: String, _ args: [String], environment: [String: String] = [:], stdin: String? = nil) -> ProcessResult {
    let dir = "/tmp/widgethost-run-\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
    mkdir(dir, 0o700)
    defer { _ = system("rm -rf '\(dir)'") }
    let outPath = dir + "/out", errPath = dir + "/err", inPath = dir + "/in"
    FileManagerFree.write(inPath, stdin ?? "")
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, inPath, O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    var env = environ.pointee == nil ? [String]() : currentEnvironment()
    for (k, v) in environment { env.removeAll { $0.hasPrefix(k + "=") }; env.append("\(k)=\(v)") }
    let argv = [program] + args
    var pid: pid_t = 0
    let cArgv = argv.map { strdup($0) } + [nil]
    let cEnv = env.map { strdup($0) } + [nil]
    defer { cArgv.forEach { free($0) }; cEnv.forEach { free($0) } }
    let rc = posix_spawn(&pid, program, &actions, nil, cArgv, cEnv)
    guard rc == 0 else { return ProcessResult(status: -1, stdout: "", stderr: "spawn failed: \(rc)") }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    let code: Int32 = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    return ProcessResult(status: code, stdout: FileManagerFree.read(outPath) ?? "", stderr: FileManagerFree.read(errPath) ?? "")
}

/// The environment every process the tests start gets: this process's own, with the POSIX
/// locale and this test process's private runtime directory (`PrivateRuntime`).
func currentEnvironment() -> [String] {
    var out: [String] = []
    var p = environ
    while let e = p.pointee { out.append(String(cString: e)); p += 1 }
    // Spawned hosts format times and numbers in the POSIX locale whatever the machine's LANG.
    return out.filter { !$0.hasPrefix("LC_ALL=") && !$0.hasPrefix("XDG_RUNTIME_DIR=") }
        + ["LC_ALL=C.UTF-8", "XDG_RUNTIME_DIR=\(PrivateRuntime.directory)"]
}

/// The `XDG_RUNTIME_DIR` of every daemon and client the tests start (issue 22): a folder of
/// this test process's own (mode 0700), never the user's, where another program on the machine
/// (a user's `widgethost reload`, another engineer's tests) would find and talk to a test
/// daemon's control socket. Folders left by test processes that are gone are removed when the
/// next one starts.
enum PrivateRuntime {
    static let namePrefix = "widgethost-test-runtime-"

    static let directory: String = {
        if let d = opendir("/tmp") {
            while let ent = readdir(d) {
                let name = withUnsafeBytes(of: ent.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                guard name.hasPrefix(namePrefix),
                      let pid = name.dropFirst(namePrefix.count).split(separator: "-").first.flatMap({ pid_t($0) }),
                      kill(pid, 0) != 0 && errno == ESRCH else { continue }
                _ = system("rm -rf '/tmp/\(name)'")
            }
            closedir(d)
        }
        var template = Array("/tmp/\(namePrefix)\(getpid())-XXXXXX".utf8CString)
        return template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
    }()
}

/// Small file helpers without Foundation's FileManager.
enum FileManagerFree {
    static func write(_ path: String, _ text: String) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { return }
        defer { close(fd) }
        _ = text.utf8CString.withUnsafeBufferPointer { Glibc.write(fd, $0.baseAddress, $0.count - 1) }
    }

    static func read(_ path: String) -> String? { bytes(path).map { String(decoding: $0, as: UTF8.self) } }

    /// A file's bytes, nil when it cannot be opened.
    static func bytes(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var out = [UInt8]()
        var buf = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = Glibc.read(fd, &buf, buf.count)
            if n <= 0 { break }
            out += buf[0..<n]
        }
        return out
    }

    static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }
}

/// Compiles a C plugin (`source`, relative to the repository) against the ABI header, with
/// `defines`, into `dir/name.so`; returns its path.
func compileCPlugin(_ source: String, in dir: String, name: String, defines: [String]) throws -> String {
    let out = dir + "/\(name).so"
    let r = run("/usr/bin/cc", ["-shared", "-fPIC", "-I", TestPaths.repoRoot + "/Sources/CWidgetPluginABI/include"]
                + defines.map { "-D" + $0 } + ["-o", out, TestPaths.repoRoot + "/" + source])
    try #require(r.status == 0, "cc failed: \(r.stderr)")
    return out
}

/// Compiles the C example plugin with `defines` into `dir`; returns the `.so` path.
func buildCPlugin(in dir: String, name: String, defines: [String] = []) throws -> String {
    try compileCPlugin("Examples/CPlugin/hello_widget.c", in: dir, name: name, defines: defines)
}

/// A fixed instant the date-dependent tests render at: Thursday 19 November 2026, 09:30:00 UTC.
/// Far from midnight in UTC, so a slow machine cannot carry a test into the next day.
let fixedTestInstant = Date(timeIntervalSince1970: 1_795_080_600)

/// The environment that runs a process tree with its wall clock at `instant` (and moving on from
/// there), through `Fixtures/shifted_clock.c` preloaded, and in time zone `timeZone`. Plugins run
/// unmodified: their `Date()` is the shifted clock. Correct when the test process itself runs
/// shifted too (the suite run on another day): the offset is taken against the real clock.
func shiftedClockEnvironment(at instant: Date, timeZone: String = "UTC") throws -> [String: String] {
    let library = try #require(ShiftedClock.library, "cannot build Fixtures/shifted_clock.c")
    let outer = getenv("SHIFTED_CLOCK_OFFSET").flatMap { Double(String(cString: $0)) } ?? 0
    let offset = instant.timeIntervalSince1970 - Date().timeIntervalSince1970 + outer
    // LC_ALL: the POSIX formats whatever the machine's LANG (a test that wants a locale sets it).
    return ["LD_PRELOAD": library, "SHIFTED_CLOCK_OFFSET": String(offset), "TZ": timeZone, "LC_ALL": "C.UTF-8"]
}

/// The environment that runs a one-shot command (`preview --png`) with its wall clock standing
/// still at `instant`, in time zone `timeZone` (`Fixtures/shifted_clock.c`, `SHIFTED_CLOCK_AT`).
func frozenClockEnvironment(at instant: Date, timeZone: String = "UTC") throws -> [String: String] {
    let library = try #require(ShiftedClock.library, "cannot build Fixtures/shifted_clock.c")
    // LC_ALL as in `shiftedClockEnvironment`: the pictures' dates must not follow the machine's LANG.
    return ["LD_PRELOAD": library, "SHIFTED_CLOCK_AT": String(instant.timeIntervalSince1970), "TZ": timeZone, "LC_ALL": "C.UTF-8"]
}

/// The shim, compiled once per test process into the build folder (rebuilt each run, renamed
/// into place so parallel test processes never load a half-written file).
private enum ShiftedClock {
    static let library: String? = {
        let dir = TestPaths.products + "/test-fixtures"
        mkdir(dir, 0o755)
        let out = dir + "/shifted_clock.so", temp = out + ".\(getpid()).tmp"
        let r = run("/usr/bin/cc", ["-shared", "-fPIC", "-O2", "-o", temp,
                                    TestPaths.repoRoot + "/Tests/IntegrationTests/Fixtures/shifted_clock.c", "-ldl"])
        guard r.status == 0, rename(temp, out) == 0 else { return nil }
        return out
    }()
}
