import CLinuxFiles
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// What a long-running process gives back of the memory a burst of work left it (issue 26:
/// whole-tree PSS against conky's).
///
/// - `oneMallocArena()`, first thing in the lean surface: glibc gives each thread that
///   allocates an arena of its own and keeps its pages after the thread is gone; the surface's
///   start-up threads (libdispatch, the bus connections) left four arenas holding ~3 MB. One
///   arena is `MALLOC_ARENA_MAX=1`; the allocations are a few hundred a second on one thread.
/// - `trimHeap()`: `malloc_trim(0)`, the heap's free pages returned (free chunks in the middle
///   of the heap too, not only its top). The host calls it when a worker rests (its timeline
///   decoded, the answer's transient memory freed: ~1.6 MB for the clock's 300 entries), the
///   surface once its first full frame is drawn.
/// - `pageOutOwnCode()`: the executable's own read-only file mappings taken out of the resident
///   set (`MADV_PAGEOUT`, Linux 5.4). The kernel maps file pages 64 KB around each fault, so
///   start-up (arguments, config, the portal and bus) leaves megabytes of code resident that the
///   steady loop does not run. Only the lean surface calls it, once, after its first full frame.
///   Clean file pages paged out are dropped from the page cache too (measured with `fincore`), so
///   a page used again is read from the disk (a major fault): the surface's next tick reads its
///   drawing path back once, and a later first use (a menu, edit mode) waits on the disk as a
///   freshly started program would. The host does not call it: it would pay that on every
///   reload, container write or click after a worker's rest.
///
/// Threading: main (loop) thread; each call is a few system calls, made at quiet moments.
public enum ProcessMemory {
    public static func oneMallocArena() {
        _ = mallopt(M_ARENA_MAX, 1)
    }

    public static func trimHeap() {
        _ = malloc_trim(0)
    }

    /// Pages out the executable's read-only mappings; returns the bytes of mappings advised (0
    /// when `/proc/self/maps` cannot be read or the kernel refuses).
    @discardableResult
    public static func pageOutOwnCode() -> Int {
        let exe = SiblingExecutable.ownPath()
        guard !exe.isEmpty, let data = FileIO.read("/proc/self/maps", limit: 1 << 20) else { return 0 }
        var advised = 0
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            // "start-end perms offset dev inode path"
            let fields = line.split(separator: " ", maxSplits: 5, omittingEmptySubsequences: true)
            guard fields.count == 6, fields[5].drop(while: { $0 == " " }) == exe, fields[1].hasPrefix("r"), !fields[1].contains("w") else { continue }
            let bounds = fields[0].split(separator: "-")
            guard bounds.count == 2, let start = UInt(bounds[0], radix: 16), let end = UInt(bounds[1], radix: 16), end > start,
                  let pointer = UnsafeMutableRawPointer(bitPattern: start) else { continue }
            if madvise(pointer, Int(end - start), 21 /* MADV_PAGEOUT */) == 0 { advised += Int(end - start) }
        }
        return advised
    }
}
