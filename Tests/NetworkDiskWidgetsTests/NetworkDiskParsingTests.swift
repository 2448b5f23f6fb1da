import FoundationEssentials
import Synchronization
import Testing
@testable import NetworkDisk

/// The Network and Disk bundle's readers on fixture text (exact numbers), its rate on virtual
/// time, and its byte formatting (docs/widgets/network-disk.md).
@Suite struct NetworkDiskParsingTests {
    static let netDev = """
        Inter-|   Receive                                                |  Transmit
         face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls carrier compressed
            lo:  170373    5014    0    0    0     0          0         0   170373    5014    0    0    0     0       0          0
        wlp2s0: 1078055242   20870    0    0    0     0          0         0   918775   10688    0    0    0     0       0          0
        enp3s0:12345678901234 9 0 0 0 0 0 0 42 1 0 0 0 0 0 0
        broken: 1 2 3
        """

    @Test func netDevGivesEachInterfaceItsBytes() {
        #expect(NetworkCounters.parse(netDev: Self.netDev) == [
            InterfaceCounters(name: "lo", receivedBytes: 170_373, sentBytes: 170_373),
            InterfaceCounters(name: "wlp2s0", receivedBytes: 1_078_055_242, sentBytes: 918_775),
            // No space after the colon once the number is wide: still read.
            InterfaceCounters(name: "enp3s0", receivedBytes: 12_345_678_901_234, sentBytes: 42),
        ])
    }

    @Test func theDefaultRouteIsTheUpRouteToEverywhereWithTheLowestMetric() {
        let route = """
            Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT
            eth0\t000200C0\t00000000\t0001\t0\t0\t0\t00FFFFFF\t0\t0\t0
            wlp2s0\t00000000\t0102A8C0\t0003\t0\t0\t600\t00000000\t0\t0\t0
            enp3s0\t00000000\t0101A8C0\t0003\t0\t0\t100\t00000000\t0\t0\t0
            tun0\t00000000\t00000000\t0000\t0\t0\t1\t00000000\t0\t0\t0
            """
        #expect(NetworkCounters.defaultRoute(route: route) == "enp3s0")
        #expect(NetworkCounters.defaultRoute(route: "Iface\tDestination\n") == nil)
    }

    static let mountInfo = """
        22 1 254:0 / / rw,relatime shared:1 - ext4 /dev/vda rw
        23 22 0:21 / /proc rw,nosuid - proc proc rw
        24 22 0:5 / /dev rw - devtmpfs udev rw
        25 22 0:26 / /run rw - tmpfs tmpfs rw
        26 22 259:3 / /home rw,relatime shared:7 - btrfs /dev/nvme0n1p3 rw,subvol=/home
        27 22 259:1 / /boot/efi rw - vfat /dev/nvme0n1p1 rw
        28 22 0:40 / /tmp rw - tmpfs tmpfs rw
        29 25 0:41 / /run/media/me/USB rw - vfat /dev/sdb1 rw
        30 22 8:17 / /mnt/My\\040Disk rw - ntfs3 /dev/sdc1 rw
        31 22 7:3 / /snap/core/1 ro - squashfs /dev/loop3 ro
        garbage line
        """

    @Test func mountInfoListsTheRootAndTheRealVolumesOnly() {
        let mounts = MountTable.parse(mountInfo: Self.mountInfo)
        #expect(mounts.count == 10)
        #expect(mounts[8] == MountPoint(path: "/mnt/My Disk", reachableAt: "/mnt/My Disk", fileSystem: "ntfs3", source: "/dev/sdc1"))
        #expect(MountTable.volumes(mounts).map(\.path) == ["/", "/boot/efi", "/home", "/mnt/My Disk"])
    }

    @Test func inTheSandboxTheVolumesAreTheBindsUnderRunHostMounts() {
        let text = """
            40 39 0:50 / / ro - tmpfs tmpfs rw
            41 40 254:0 /usr /usr ro - ext4 /dev/vda rw
            52 40 254:0 /usr /run/host/mounts/%2F ro,nosuid,nodev,noexec - ext4 /dev/vda rw
            53 40 259:3 /me/.fonts /run/host/mounts/%2Fhome ro - btrfs /dev/nvme0n1p3 rw
            54 40 8:17 / /run/host/mounts/%2Fmnt%2F100%25 ro - ext4 /dev/sdc1 rw
            55 40 8:18 / /run/host/mounts/%41 ro - ext4 /dev/sdc2 rw
            """
        let volumes = MountTable.volumes(MountTable.parse(mountInfo: text))
        #expect(volumes.map(\.path) == ["/", "/home", "/mnt/100%"])
        #expect(volumes.map(\.reachableAt) == ["/run/host/mounts/%2F", "/run/host/mounts/%2Fhome", "/run/host/mounts/%2Fmnt%2F100%25"])
    }

    @Test func theMountsParameterPicksAndOrders() {
        let all = MountTable.volumes(MountTable.parse(mountInfo: Self.mountInfo))
        #expect(DiskProvider.select(all, wanted: "").map(\.path) == ["/", "/boot/efi", "/home", "/mnt/My Disk"])
        #expect(DiskProvider.select(all, wanted: " /home , /, /nowhere").map(\.path) == ["/home", "/"])
    }

    @Test func ratesAreTheCountersDeltaOverTheSeconds() {
        let t0 = Date(timeIntervalSince1970: 1_795_080_600)
        let a = CounterSample(date: t0, counters: [InterfaceCounters(name: "eth0", receivedBytes: 1_000, sentBytes: 500),
                                                  InterfaceCounters(name: "wg0", receivedBytes: 9_000, sentBytes: 9_000)])
        let b = CounterSample(date: t0.addingTimeInterval(4), counters: [InterfaceCounters(name: "eth0", receivedBytes: 9_000, sentBytes: 2_500),
                                                                         InterfaceCounters(name: "wg0", receivedBytes: 10, sentBytes: 10),
                                                                         InterfaceCounters(name: "new0", receivedBytes: 1, sentBytes: 1)])
        // wg0 went back (reset): no rate rather than a huge one; new0 has no earlier sample.
        #expect(ThroughputMath.rates(from: a, to: b) == ["eth0": Throughput(down: 2_000, up: 500)])
        #expect(ThroughputMath.rates(from: b, to: a).isEmpty)
    }

    /// A virtual clock that the meter's sleep advances, and counters that grow by a fixed rate.
    final class VirtualNetwork: Sendable {
        let state = Mutex<(now: Double, sleeps: [Double])>((1_795_080_600, []))
        let downPerSecond: Double, upPerSecond: Double
        init(down: Double, up: Double) { downPerSecond = down; upPerSecond = up }
        func advance(_ seconds: Double) { state.withLock { $0.now += seconds } }
        var sleeps: [Double] { state.withLock { $0.sleeps } }
        func meter() -> ThroughputMeter {
            ThroughputMeter(now: { Date(timeIntervalSince1970: self.state.withLock { $0.now }) },
                            sleep: { s in self.state.withLock { $0.now += s; $0.sleeps.append(s) } },
                            read: {
                                let t = self.state.withLock { $0.now } - 1_795_080_600
                                return [InterfaceCounters(name: "eth0", receivedBytes: UInt64(1_000_000 + t * self.downPerSecond),
                                                          sentBytes: UInt64(t * self.upPerSecond))]
                            })
        }
    }

    @Test func aFreshWorkerReadsTwiceHalfASecondApartThenUsesTheKeptSample() {
        let net = VirtualNetwork(down: 250_000, up: 10_000)
        let meter = net.meter()
        #expect(meter.measure().rates["eth0"] == Throughput(down: 250_000, up: 10_000))
        #expect(net.sleeps == [0.5])
        net.advance(5)
        #expect(meter.measure().rates["eth0"] == Throughput(down: 250_000, up: 10_000))
        #expect(net.sleeps == [0.5], "the previous reload's sample is used: no second read")
        // A sample older than a minute says little about now: read twice again.
        net.advance(120)
        #expect(meter.measure().rates["eth0"] == Throughput(down: 250_000, up: 10_000))
        #expect(net.sleeps == [0.5, 0.5])
    }

    @Test func bytesAreWrittenInApplesFileStyle() {
        #expect(ByteText.size(123_000_000_000) == "123 GB")
        #expect(ByteText.size(500_107_862_016) == "500 GB")
        #expect(ByteText.size(1_460_000_000_000) == "1.46 TB")
        #expect(ByteText.size(1_500_000_000) == "1.5 GB")
        #expect(ByteText.size(536_000_000) == "536 MB")
        #expect(ByteText.size(12_340_000) == "12.3 MB")
        #expect(ByteText.size(840_400) == "840 KB")
        #expect(ByteText.size(999) == "999 bytes")
        #expect(ByteText.rate(2_450_000) == "2.5 MB/s")
        #expect(ByteText.rate(182_000) == "182 KB/s")
        #expect(ByteText.rate(0) == "0 B/s")
        #expect(ByteText.rate(9_600) == "10 KB/s")
    }
}
