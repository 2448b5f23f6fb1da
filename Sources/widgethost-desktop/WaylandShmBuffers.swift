import CWayland
import WidgetDesktopScene
#if canImport(Glibc)
import Glibc
#endif

/// The two `wl_shm` buffers of one output's surface, in one pool (a memfd both sides map): the
/// surface draws into the one the compositor is not reading while it shows the other. Each
/// remembers which frame it last held, for `PixelBuffer.age`. A new size or scale is a new pair.
///
/// Threading: the surface's thread; the release listener runs inside the backend's `dispatch()`.
final class WaylandShmBuffers {
    let width: Int
    let height: Int
    let stride: Int
    let scale: Double
    /// Which pair this is, per output: a `PixelBuffer.token` is `generation * 2 + index`.
    let generation: Int
    private let memory: UnsafeMutableRawPointer
    private let size: Int
    private var slots: [Slot] = []
    /// Called when the compositor released a buffer (one may be free again).
    var released: () -> Void = {}

    fileprivate final class Slot {
        let buffer: OpaquePointer
        let pixels: UnsafeMutableRawPointer
        /// Attached and not yet released by the compositor.
        var busy = false
        /// The output's frame number it was last presented as; 0 = never.
        var frame = 0
        weak var owner: WaylandShmBuffers?
        init(buffer: OpaquePointer, pixels: UnsafeMutableRawPointer) { self.buffer = buffer; self.pixels = pixels }
    }

    /// Two buffers of `width` × `height` ARGB8888 pixels; throws `DisplayLost` when the memory
    /// cannot be had (no memfd, no address space).
    init(shm: OpaquePointer, width: Int, height: Int, scale: Double, generation: Int) throws {
        self.width = width; self.height = height; self.scale = scale; self.generation = generation
        stride = width * 4
        size = stride * height * 2
        let fd = widgethost_wayland_shm_file(size)
        guard fd >= 0 else { throw DisplayLost("cannot make a \(size)-byte shared-memory buffer: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        guard let mapped = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0), mapped != MAP_FAILED else {
            throw DisplayLost("cannot map a \(size)-byte shared-memory buffer: \(String(cString: strerror(errno)))")
        }
        memory = mapped
        let pool = wl_shm_create_pool(shm, fd, Int32(size))
        defer { wl_shm_pool_destroy(pool) }
        for index in 0..<2 {
            let offset = index * stride * height
            let buffer = wl_shm_pool_create_buffer(pool, Int32(offset), Int32(width), Int32(height), Int32(stride),
                                                   UInt32(WL_SHM_FORMAT_ARGB8888.rawValue))!
            let slot = Slot(buffer: buffer, pixels: mapped + offset)
            slot.owner = self
            wl_buffer_add_listener(buffer, bufferListener, Unmanaged.passUnretained(slot).toOpaque())
            slots.append(slot)
        }
    }

    deinit {
        for slot in slots { wl_buffer_destroy(slot.buffer) }
        munmap(memory, size)
    }

    /// A free buffer (the one presented longest ago first), as a `PixelBuffer` of `output` whose
    /// age counts from frame `currentFrame` (the output's last presented frame); nil when the
    /// compositor holds both.
    func free(output: DisplayOutput.ID, currentFrame: Int) -> PixelBuffer? {
        guard let (index, slot) = slots.enumerated().filter({ !$0.element.busy }).min(by: { $0.element.frame < $1.element.frame }) else { return nil }
        let age = slot.frame == 0 ? 0 : currentFrame - slot.frame + 1
        return PixelBuffer(output: output, pixels: slot.pixels, width: width, height: height, stride: stride,
                           scale: scale, age: age, token: generation * 2 + index)
    }

    /// Whether some buffer is free.
    var hasFree: Bool { slots.contains { !$0.busy } }

    /// The `wl_buffer` of `token`, marked busy as frame `frame`; nil when the token is of another pair.
    func take(token: Int, frame: Int) -> OpaquePointer? {
        guard token / 2 == generation, slots.indices.contains(token % 2) else { return nil }
        let slot = slots[token % 2]
        slot.busy = true
        slot.frame = frame
        return slot.buffer
    }

    fileprivate func slotReleased(_ slot: Slot) {
        slot.busy = false
        released()
    }
}

nonisolated(unsafe) private let bufferListener: UnsafeMutablePointer<wl_buffer_listener> = {
    let listener = UnsafeMutablePointer<wl_buffer_listener>.allocate(capacity: 1)
    listener.initialize(to: wl_buffer_listener(release: { data, _ in
        let slot = Unmanaged<WaylandShmBuffers.Slot>.fromOpaque(data!).takeUnretainedValue()
        slot.owner?.slotReleased(slot)
    }))
    return listener
}()
