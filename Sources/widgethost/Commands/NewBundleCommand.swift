import ArgumentParser
import FoundationEssentials
import WidgetHostCore
#if canImport(Glibc)
import Glibc
#endif

/// `widgethost new-bundle <folder>`: writes a widget bundle package (`BundleTemplate`) wired to
/// the SDK this `widgethost` was built from — the clone whose `.build/` holds the executable,
/// found by walking up from it — or to `--sdk`. Works from a clone in any folder: the package
/// names the SDK by path, under the package name `widgethost`. Writes nothing into a folder that
/// is not empty.
struct NewBundleCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "new-bundle",
        abstract: "Create a widget bundle package (Package.swift and a starter widget) wired to this SDK.",
        discussion: """
        The package depends on the WidgetHost clone this widgethost was built in (or --sdk), by \
        absolute path: build it with `swift build -c release` in the new folder, and preview \
        .build/release/lib<name>.so. See docs/plugin-authoring.md.
        """
    )

    @Argument(help: "The package folder to create (its name is the module's, unless --name).", completion: .directory)
    var folder: String

    @Option(help: "The module and library name (default: the folder's name).")
    var name: String?

    @Option(help: "The WidgetHost clone to build against (default: the one this widgethost was built in).", completion: .directory)
    var sdk: String?

    func run() throws {
        var trimmed = Substring(folder)
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        let given = ConfigSource.absolute(String(trimmed))
        // "../MyWidgets" as /home/me/src/MyWidgets: its parent must exist.
        guard let parent = Self.realPath(given.deletingLastPathComponent) else {
            throw ValidationError("\(given.deletingLastPathComponent) does not exist")
        }
        let target = (parent == "/" ? "" : parent) + "/" + given.lastPathComponent
        let module = name ?? target.lastPathComponent
        guard BundleTemplate.isModuleName(module) else {
            throw ValidationError("\"\(module)\" is not a Swift module name (letters, digits and _, not first a digit): pass --name")
        }
        let sdkPath: String
        if let sdk {
            guard let resolved = Self.realPath(ConfigSource.absolute(sdk)), Self.isSDK(resolved) else {
                throw ValidationError("\(sdk) is not a WidgetHost clone (no Package.swift with Sources/OpenWidgetKit)")
            }
            sdkPath = resolved
        } else {
            guard let found = Self.sdkOfThisExecutable() else {
                throw ValidationError("this widgethost (\(SiblingExecutable.path("widgethost"))) is not inside a WidgetHost clone: pass --sdk with the clone's path")
            }
            sdkPath = found
        }
        if let existing = FileIO.list(target), !existing.isEmpty {
            throw ValidationError("\(target) exists and is not empty: nothing written")
        }
        let template = BundleTemplate(name: module, sdkPath: sdkPath)
        do {
            for file in template.files {
                let path = target + "/" + file.path
                try FileIO.makeDirectories(path.deletingLastPathComponent)
                try FileIO.writeAtomically(Data(file.contents.utf8), to: path)
            }
        } catch {
            ControlClient.printError("new-bundle: \(error)")
            throw ExitCode(1)
        }
        print("Created \(target): bundle \(module) on the SDK at \(sdkPath)")
        print("Next: cd \(folder) && swift build -c release && widgethost preview .build/release/lib\(module).so")
    }

    /// `path` with symbolic links, `.` and `..` resolved; nil when it does not exist.
    static func realPath(_ path: String) -> String? {
        guard let p = realpath(path, nil) else { return nil }
        defer { free(p) }
        return String(cString: p)
    }

    /// Whether `path` holds the WidgetHost package (its manifest and the SDK's sources).
    static func isSDK(_ path: String) -> Bool {
        FileIO.exists(path + "/Package.swift") && FileIO.isDirectory(path + "/Sources/OpenWidgetKit")
            && FileIO.isDirectory(path + "/PackagePlugins/WidgetBundleSupport")
    }

    /// The clone this executable was built in: the nearest folder above it that `isSDK`.
    static func sdkOfThisExecutable() -> String? {
        var dir = SiblingExecutable.path("").deletingLastPathComponent
        while dir.count > 1 {
            if isSDK(dir) { return dir }
            dir = dir.deletingLastPathComponent
        }
        return nil
    }
}
