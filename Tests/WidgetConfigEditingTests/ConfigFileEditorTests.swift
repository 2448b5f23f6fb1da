import Dispatch
import FoundationEssentials
import OpenWidgetKit
import Testing
import WidgetConfigEditing
import WidgetHostCore
#if canImport(Glibc)
import Glibc
#endif

/// `ConfigFileEditor`: the lock, the atomic write, and the files it must refuse (issue 25).
@Suite struct ConfigFileEditorTests {
    /// A private temporary folder, removed by `remove()`.
    struct Folder {
        let path: String
        init() {
            var template = Array("/tmp/widgethost-edit-XXXXXX".utf8CString)
            path = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
        }
        func write(_ name: String, _ text: String, mode: mode_t = 0o644) {
            let p = path + "/" + name
            unlink(p)
            try! FileIO.writeAtomically(Data(text.utf8), to: p, mode: mode)
            chmod(p, mode)
        }
        func read(_ name: String) -> String? { FileIO.read(path + "/" + name).map { String(decoding: $0, as: UTF8.self) } }
        func remove() {
            for name in FileIO.list(path) ?? [] { chmod(path + "/" + name, 0o644); unlink(path + "/" + name) }
            rmdir(path)
        }
    }

    func editor(_ path: String) -> ConfigFileEditor {
        ConfigFileEditor(path: path, environment: ["HOME": "/tmp"], catalog: { _ in EditFixtures.catalog() })
    }

    func add(_ path: String, _ kind: String = "habit", family: String = "systemSmall") throws -> String {
        try editor(path).edit { try $0.apply(.add(WidgetPlacement(kind: kind, family: family))) }
    }

    @Test func anEditIsWrittenInPlaceWithTheFilesModeKept() throws {
        let dir = Folder()
        defer { dir.remove() }
        dir.write("config.json", EditFixtures.shipped, mode: 0o600)
        var before = stat()
        stat(dir.path + "/config.json", &before)
        #expect(try add(dir.path + "/config.json", "stats", family: "systemMedium") == "stats-systemMedium")
        EditFixtures.expectOnlyInsertion(EditFixtures.shipped, dir.read("config.json")!, ",\n    { \"kind\": \"stats\", \"family\": \"systemMedium\" }")
        var after = stat()
        stat(dir.path + "/config.json", &after)
        #expect(after.st_ino != before.st_ino, "replaced by rename, not rewritten in place")
        #expect(after.st_mode & 0o777 == 0o600)
        #expect(FileIO.list(dir.path) == ["config.json"], "no temporary or lock file left")
    }

    @Test func aReadOnlyFileOrASymlinkToOneIsRefusedAndUntouched() throws {
        let dir = Folder()
        defer { dir.remove() }
        dir.write("config.json", EditFixtures.shipped, mode: 0o444)
        symlink(dir.path + "/config.json", dir.path + "/link.json")
        #expect(throws: ConfigEditError("\(dir.path)/config.json is read-only (mode 444): not changed")) { try add(dir.path + "/config.json") }
        #expect(throws: ConfigEditError("\(dir.path)/link.json (a symlink to \(dir.path)/config.json) is read-only (mode 444): not changed")) {
            try add(dir.path + "/link.json")
        }
        #expect(dir.read("config.json") == EditFixtures.shipped)
        #expect(throws: ConfigEditError("no config file at \(dir.path)/absent.json (create one with {} in it for every default)")) { try add(dir.path + "/absent.json") }
        symlink(dir.path + "/gone.json", dir.path + "/dangling.json")
        #expect(throws: ConfigEditError("\(dir.path)/dangling.json is a symlink to a file that does not exist: not changed")) { try add(dir.path + "/dangling.json") }
        mkdir(dir.path + "/folder.json", 0o755)
        defer { rmdir(dir.path + "/folder.json") }
        #expect(throws: ConfigEditError("\(dir.path)/folder.json is not a regular file: not changed")) { try add(dir.path + "/folder.json") }
    }

    @Test func aSymlinkStaysALinkAndItsTargetIsEdited() throws {
        let dir = Folder()
        defer { dir.remove() }
        dir.write("real.json", "{\"widgets\": []}")
        symlink(dir.path + "/real.json", dir.path + "/config.json")
        #expect(try add(dir.path + "/config.json") == "habit-systemSmall")
        var st = stat()
        lstat(dir.path + "/config.json", &st)
        #expect(st.st_mode & S_IFMT == S_IFLNK)
        #expect(dir.read("real.json") == "{\"widgets\": [{ \"kind\": \"habit\", \"family\": \"systemSmall\" }]}")
    }

    @Test func aHandEditDuringTheEditIsKept() throws {
        let dir = Folder()
        defer { dir.remove() }
        dir.write("config.json", "{\"widgets\": []}")
        var runs = 0
        let id = try editor(dir.path + "/config.json").edit { e -> String in
            runs += 1
            // An editor that takes no lock saves while the first attempt is under way.
            if runs == 1 { dir.write("config.json", "{\"comment\": \"by hand\", \"widgets\": []}") }
            return try e.apply(.add(WidgetPlacement(kind: "habit", family: "systemSmall")))
        }
        #expect(id == "habit-systemSmall")
        #expect(runs == 2)
        #expect(dir.read("config.json") == "{\"comment\": \"by hand\", \"widgets\": [{ \"kind\": \"habit\", \"family\": \"systemSmall\" }]}")
    }

    @Test func concurrentEditsLoseNone() throws {
        let dir = Folder()
        defer { dir.remove() }
        dir.write("config.json", "{\n  \"widgets\": []\n}\n")
        let path = dir.path + "/config.json"
        let count = 12
        nonisolated(unsafe) var failures: [String] = []
        let lock = NSLockFree()
        DispatchQueue.concurrentPerform(iterations: count) { i in
            do {
                _ = try editor(path).edit { try $0.apply(.add(WidgetPlacement(kind: i % 2 == 0 ? "habit" : "stats", family: "systemSmall", id: "w\(i)"))) }
            } catch { lock.locked { failures.append("\(error)") } }
        }
        #expect(failures.isEmpty, "\(failures)")
        let config = try ConfigParser.parse(FileIO.read(path)!, baseDirectory: dir.path, environment: [:])
        #expect(Set(config.widgets?.map(\.id) ?? []) == Set((0..<count).map { "w\($0)" }))
    }
}

/// A pthread mutex (FoundationEssentials has no NSLock).
final class NSLockFree: @unchecked Sendable {
    private var mutex = pthread_mutex_t()
    init() { pthread_mutex_init(&mutex, nil) }
    deinit { pthread_mutex_destroy(&mutex) }
    func locked<T>(_ body: () -> T) -> T {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        return body()
    }
}
