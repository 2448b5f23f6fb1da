import FoundationEssentials
import OpenWidgetKit

/// The manifests of bundles described before, so that a bundle none of whose kinds is placed
/// needs no worker at all (issue 26, "workers only while needed"): `<state>/manifests/<file
/// name>.json` holds the manifest with the identity of the file it came from — its path and
/// `PluginFile.fingerprint` (device, inode, size, modification time in nanoseconds).
///
/// Why that identity and not a hash of the contents: it is what the registry already trusts to
/// tell a changed `.so` (a replacement by rename gets a new inode, a copy over it a new size or
/// mtime), it costs one `stat` the folder scan makes anyway, and a hash would read every bundle
/// (about 5 MB each for a Swift bundle) at every start — the work the cache is there to save.
/// A file whose identity differs from the entry's is a miss, and so is an entry that cannot be
/// read or decoded: the bundle is described by its worker again and the entry rewritten.
///
/// Value type; any thread (each call is a file operation of its own).
public struct BundleManifestCache: Sendable {
    struct Entry: Codable {
        var path: String
        var fingerprint: String
        var manifest: BundleManifest
    }

    public let directory: String

    public init(directory: String) { self.directory = directory }

    /// The cache of the host that runs with `config` (`<paths.state>/manifests`), which the CLI
    /// reads too (`gallery`, the config edits): a bundle described by the host needs no worker.
    public init(hostConfig config: HostConfig) { self.init(directory: config.paths.state + "/manifests") }

    private func entryPath(_ fileName: String) -> String { directory + "/" + fileName + ".json" }

    /// The manifest `file` described when it had the same identity, nil otherwise.
    public func manifest(for file: PluginFile) -> BundleManifest? {
        guard let data = FileIO.read(entryPath(file.name), limit: 16 << 20),
              let entry = try? WireCodec.decode(Entry.self, from: data),
              entry.path == file.path, entry.fingerprint == file.fingerprint else { return nil }
        return entry.manifest
    }

    /// Remembers what `file` described; a failure to write only costs a describe later.
    public func store(_ manifest: BundleManifest, for file: PluginFile) {
        guard let data = try? WireCodec.encode(Entry(path: file.path, fingerprint: file.fingerprint, manifest: manifest)) else { return }
        try? FileIO.makeDirectories(directory, mode: 0o700)
        try? FileIO.writeAtomically(data, to: entryPath(file.name), mode: 0o600)
    }

    /// Forgets the bundle of `fileName` (removed from the plugin folder).
    public func remove(fileName: String) { FileIO.remove(entryPath(fileName)) }
}
