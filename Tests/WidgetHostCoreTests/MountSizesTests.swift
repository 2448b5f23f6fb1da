import FoundationEssentials
import Testing
import OpenWidgetKit
@testable import WidgetHostCore

/// Which host directories the `mount-sizes` declaration binds for `statvfs` (docs/limits.md
/// "Sandbox"), from a fixture mount table, with links resolved by a fake.
@Suite struct MountSizesTests {
    static let mountInfo = """
        22 1 254:0 / / rw,relatime shared:1 - ext4 /dev/vda rw
        23 22 0:21 / /proc rw,nosuid - proc proc rw
        24 22 0:5 / /dev rw - devtmpfs udev rw
        25 22 0:26 / /run rw - tmpfs tmpfs rw
        26 22 259:3 / /home rw,relatime - btrfs /dev/nvme0n1p3 rw
        27 22 259:1 / /boot/efi rw - vfat /dev/nvme0n1p1 rw
        28 22 0:40 / /tmp rw - tmpfs tmpfs rw
        29 25 8:33 / /run/media/me/USB rw - vfat /dev/sdc1 rw
        30 22 8:17 / /mnt/My\\040Disk rw - ntfs3 /dev/sdb1 rw
        31 30 8:18 / /mnt/My\\040Disk/inner rw - ext4 /dev/sdb2 rw
        """

    /// The worker's visible paths as links resolve them: /lib is usr/lib, the fonts are in /home.
    func resolve(_ path: String) -> String? {
        ["/usr": "/usr", "/lib": "/usr/lib", "/home/me/.fonts": "/home/me/.fonts", "/etc/fonts": "/etc/fonts"][path]
    }

    @Test func eachVolumeIsReachedThroughADirectoryTheWorkerAlreadySeesOrItsOwnMountPoint() {
        let binds = MountSizes.binds(mountInfo: Self.mountInfo, visible: ["/plugin.so", "/usr", "/lib", "/home/me/.fonts", "/etc/fonts"],
                                     resolve: resolve)
        #expect(binds == [
            // The root has mounts beneath it: /usr, already visible and with none beneath.
            MountSizes.Bind(source: "/usr", destination: "/run/host/mounts/%2F"),
            // Nothing mounted beneath /boot/efi: the mount point itself.
            MountSizes.Bind(source: "/boot/efi", destination: "/run/host/mounts/%2Fboot%2Fefi"),
            MountSizes.Bind(source: "/home/me/.fonts", destination: "/run/host/mounts/%2Fhome"),
            // "/mnt/My Disk" has a mount beneath and nothing visible on it: left out.
            MountSizes.Bind(source: "/mnt/My Disk/inner", destination: "/run/host/mounts/%2Fmnt%2FMy Disk%2Finner"),
        ])
    }

    @Test func theRootIsLeftOutWhenNoDirectoryOfItCanBeBound() {
        let binds = MountSizes.binds(mountInfo: Self.mountInfo, visible: [], resolve: { $0 })
        #expect(!binds.map(\.destination).contains("/run/host/mounts/%2F"))
        #expect(MountSizes.encoded("/a%b/c") == "%2Fa%25b%2Fc")
    }

    @Test func theSandboxArgumentCarriesTheDeclarations() {
        let spec = WorkerSandbox.Spec(readWrite: ["/c/group.x"], network: false, isolate: true, networkCounters: true, mountSizes: true)
        #expect(spec.argument == "no-network isolate network-counters mount-sizes\n/c/group.x")
        #expect(WorkerSandbox.Spec.parse(spec.argument) == spec)
        #expect(WorkerSandbox.Spec.parse("no-network isolate") == WorkerSandbox.Spec(isolate: true))
        #expect(WorkerSandbox.Spec.parse("no-network sockets") == nil)
        let manifest = BundleManifest(bundleId: "b", sdkVersion: "1", abiVersion: 1, widgets: [], appGroups: [], permissions: ["network-counters"])
        #expect(WorkerSandbox.Spec(manifest: manifest, containersRoot: "/c") == WorkerSandbox.Spec(networkCounters: true))
    }
}
