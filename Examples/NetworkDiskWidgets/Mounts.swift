import FoundationEssentials
import OpenWidgetKit
#if canImport(Glibc)
import Glibc
#endif

/// One line of `/proc/self/mountinfo`: where, what file system, from which device.
struct MountPoint: Equatable, Sendable {
    /// The mount point as the host has it ("/", "/home").
    var path: String
    /// Where this process reaches it (the same, or under `MountTable.hostMounts` in the sandbox).
    var reachableAt: String
    var fileSystem: String
    var source: String
}

/// A volume's size as `statvfs` gives it, in bytes.
struct VolumeUsage: Equatable, Sendable {
    var path: String
    var total: Double
    var free: Double
    var usedFraction: Double { total > 0 ? min(1, max(0, (total - free) / total)) : 0 }
}

/// The volumes to show. In the sandbox, the bundle's `mount-sizes` declaration has the worker's
/// namespace hold, for each real host volume, a directory of it bound read-only at
/// `hostMounts` + its mount point percent-encoded, with no Landlock right to read in it:
/// `statvfs` works, reading a file or listing a folder does not (docs/limits.md "Sandbox").
/// The worker's own `/proc/self/mountinfo` lists those binds with their file systems.
/// Unsandboxed (preview, or `WIDGETHOST_SANDBOX=off`) the same file lists the host's mounts
/// directly. Pure parsers plus `statvfs`; any thread.
enum MountTable {
    static let hostMounts = "/run/host/mounts"

    /// File systems that hold a user's data; tmpfs, proc, overlay layers, squashfs snaps… are not.
    static let realFileSystems: Set<String> = ["ext2", "ext3", "ext4", "btrfs", "xfs", "vfat", "exfat", "ntfs", "ntfs3",
                                               "fuseblk", "f2fs", "zfs", "jfs", "reiserfs", "hfsplus", "bcachefs", "nilfs2"]

    /// The mounts of a mountinfo text: mount point (field 5, octal escapes decoded), file system
    /// and source (after the " - " separator). Lines that do not parse are skipped.
    static func parse(mountInfo text: String) -> [MountPoint] {
        text.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ", omittingEmptySubsequences: false)
            guard fields.count >= 10, let dash = fields.firstIndex(of: "-"), dash >= 6, dash + 2 < fields.count else { return nil }
            let path = unescape(fields[4])
            return MountPoint(path: path, reachableAt: path, fileSystem: String(fields[dash + 1]), source: unescape(fields[dash + 2]))
        }
    }

    /// The volumes worth showing, each once, sorted by path. When `mounts` holds binds under
    /// `hostMounts` (the sandboxed worker: one per volume, named by the host's mount point with
    /// `%` and `/` percent-encoded, `/run/host/mounts/%2Fhome`), those, named by the host's
    /// path; otherwise the root and every mount of a real file system, not under `/proc`,
    /// `/sys`, `/dev` or `/run`.
    static func volumes(_ mounts: [MountPoint]) -> [MountPoint] {
        let prefix = hostMounts + "/"
        let bound = mounts.compactMap { m -> MountPoint? in
            guard m.path.hasPrefix(prefix), let host = percentDecoded(String(m.path.dropFirst(prefix.count))), host.hasPrefix("/") else { return nil }
            return MountPoint(path: host, reachableAt: m.path, fileSystem: m.fileSystem, source: m.source)
        }
        var chosen: [MountPoint]
        if !bound.isEmpty {
            chosen = bound
        } else {
            chosen = mounts.filter { m in
                m.path == "/" || (realFileSystems.contains(m.fileSystem)
                                  && !["/proc", "/sys", "/dev", "/run"].contains { m.path == $0 || m.path.hasPrefix($0 + "/") })
            }
        }
        // A path mounted twice (a bind over a mount): the last one is what the path shows.
        var byPath: [String: MountPoint] = [:]
        for m in chosen { byPath[m.path] = m }
        return byPath.values.sorted { $0.path < $1.path }
    }

    /// The size and free space (what an unprivileged user may still write) of `mount`, or nil
    /// when `statvfs` fails.
    static func usage(of mount: MountPoint) -> VolumeUsage? {
        var st = statvfs()
        guard statvfs(mount.reachableAt, &st) == 0, st.f_blocks > 0 else { return nil }
        let unit = Double(st.f_frsize > 0 ? st.f_frsize : st.f_bsize)
        return VolumeUsage(path: mount.path, total: Double(st.f_blocks) * unit, free: Double(st.f_bavail) * unit)
    }

    static func read() -> [MountPoint] { readText("/proc/self/mountinfo").map(parse(mountInfo:)).map(volumes) ?? [] }

    /// `%2F` → `/`, `%25` → `%`; nil for any other escape.
    static func percentDecoded(_ name: String) -> String? {
        var out = "", rest = Substring(name)
        while let i = rest.firstIndex(of: "%") {
            out += rest[..<i]
            let code = rest[i...].prefix(3)
            switch code { case "%2F": out += "/"; case "%25": out += "%"; default: return nil }
            rest = rest[i...].dropFirst(3)
        }
        return out + rest
    }

    /// `\040` (space), `\011`, `\012`, `\134` as the kernel escapes them in mountinfo.
    static func unescape(_ field: Substring) -> String {
        guard field.contains("\\") else { return String(field) }
        var bytes: [UInt8] = []
        let utf8 = Array(field.utf8)
        var i = 0
        while i < utf8.count {
            if utf8[i] == UInt8(ascii: "\\"), i + 3 < utf8.count,
               let v = UInt8(String(decoding: utf8[(i + 1)...(i + 3)], as: UTF8.self), radix: 8) {
                bytes.append(v); i += 4
            } else {
                bytes.append(utf8[i]); i += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
