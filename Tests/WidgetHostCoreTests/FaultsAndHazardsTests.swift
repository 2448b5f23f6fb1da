import FoundationEssentials
import Logging
import OpenWidgetKit
import Testing
@testable import WidgetHostCore
#if canImport(Glibc)
import Glibc
#endif

/// Issue 23, item 5, below the daemon: which URLs reach the opener, the widget limit, the
/// `status` answer at any size, config files that are not regular files, shared folders, and a
/// picture whose write failed.
@Suite struct FaultsAndHazardsTests {
    let logger = Logger(label: "test")

    func parse(_ json: String) -> (config: HostConfig, errors: [String]) {
        let c = ConfigParser.check(Data(json.utf8), baseDirectory: "/tmp", environment: ["HOME": "/tmp"])
        return (c.config, c.errors.map(\.description))
    }

    /// A folder of its own under /tmp, removed at the end.
    func tempFolder() -> String {
        var template = Array("/tmp/widgethost-hazard-XXXXXX".utf8CString)
        return template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
    }

    func mode(_ path: String) -> mode_t { var st = stat(); stat(path, &st); return st.st_mode & 0o7777 }

    // MARK: URLs

    @Test func onlyURLsWithAnAllowedSchemeMayBeOpened() {
        let standard = HostConfig.Defaults().openSchemes
        #expect(standard == ["https", "http", "mailto"])
        for url in ["--help", "-x:y", "", "://x", "1x:y", "no scheme", "x y:z"] {
            #expect(OpenableURL.refusal(url, allowed: standard) == "\"\(url)\" does not begin with a URL scheme", "\(url)")
        }
        #expect(OpenableURL.refusal("HTTPS://example.org/a", allowed: standard) == nil)
        #expect(OpenableURL.refusal("mailto:a@b.c", allowed: standard) == nil)
        #expect(OpenableURL.refusal("file:///etc/passwd", allowed: standard) == "the scheme \"file\" is not in defaults.openSchemes (https, http, mailto)")
        #expect(OpenableURL.refusal("myapp://habit", allowed: ["myapp"]) == nil)
        #expect(OpenableURL.scheme(of: "git+ssh://h/r") == "git+ssh")
    }

    @Test func openSchemesParseLowercasedAndMalformedOnesAreNamed() {
        #expect(parse(#"{"defaults": {"openSchemes": ["HTTPS", "myapp", "x-y.z+w"]}}"#).config.defaults.openSchemes == ["https", "myapp", "x-y.z+w"])
        #expect(parse(#"{"defaults": {"openSchemes": []}}"#).config.defaults.openSchemes == [])
        let errors = parse(#"{"defaults": {"openSchemes": ["ok", "my:app", "", "-x", 3]}}"#).errors
        #expect(errors.count == 1 && errors[0].hasPrefix("defaults.openSchemes[1]: \"my:app\" is not a URL scheme"), "\(errors)")
        #expect(parse(#"{"defaults": {"openSchemes": ["-x"]}}"#).errors.first?.hasPrefix("defaults.openSchemes[0]: \"-x\" is not a URL scheme") == true)
        #expect(parse(#"{"defaults": {"openSchemes": "https"}}"#).errors.first?.hasPrefix("defaults.openSchemes: expected an array") == true)
    }

    // MARK: config files that are not regular files

    @Test func aFIFOIsRefusedWithoutWaitingForAWriter() throws {
        let dir = tempFolder(); defer { _ = system("rm -rf '\(dir)'") }
        try #require(mkfifo(dir + "/config.json", 0o600) == 0)
        #expect(throws: FileIO.Failure.self) { _ = try FileIO.readRegularFile(dir + "/config.json") }
        do { _ = try FileIO.readRegularFile(dir + "/config.json") } catch { #expect(error.description == "is a FIFO, not a regular file") }
        do { _ = try FileIO.readRegularFile(dir) } catch { #expect(error.description == "is a folder, not a regular file") }
        do { _ = try FileIO.readRegularFile(dir + "/none") } catch { #expect(error.description == "cannot read the file: No such file or directory") }
        FileIO.remove(dir + "/config.json")
        try FileIO.writeAtomically(Data("{}".utf8), to: dir + "/config.json")
        #expect(try FileIO.readRegularFile(dir + "/config.json") == Data("{}".utf8))
    }

    // MARK: shared folders

    /// A 1777 folder (as /tmp) named as `state` or `out` is refused, never chmodded: the sticky
    /// bit stays.
    @Test func aSharedFolderIsRefusedAndKeepsItsMode() throws {
        let shared = tempFolder(); defer { _ = system("rm -rf '\(shared)'") }
        try #require(chmod(shared, 0o1777) == 0)
        #expect(HostFolders.problem(shared)?.hasPrefix("\(shared) is a shared folder (mode 1777): refused") == true)
        var paths = HostConfig.Paths(plugins: "/p", out: shared + "/out", containers: "/c", state: shared)
        #expect(HostFolders.problem(paths)?.key == "paths.state")
        paths.state = shared + "/state"
        #expect(HostFolders.problem(paths) == nil, "folders that do not exist yet are the host's to create")
        paths.out = shared
        #expect(HostFolders.problem(paths)?.key == "paths.out")
        StatePermissions.apply(state: shared, out: shared, logger: logger)
        #expect(mode(shared) == 0o1777, "never chmodded")
        StatePermissions.apply(state: shared + "/state", out: shared, logger: logger)
        #expect(mode(shared + "/state") == 0o700, "created private")
        #expect(mode(shared) == 0o1777)
    }
}
