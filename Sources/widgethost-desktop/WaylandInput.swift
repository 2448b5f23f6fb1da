import CWayland
import WidgetDesktopScene
#if canImport(Glibc)
import Glibc
#endif

/// One `wl_seat`: its pointer and touch as `PointerEvent`s in logical points of the surface's
/// area (a touch is button 1), its keyboard as `KeyEvent`s while a surface has the keyboard focus.
/// Keys are read by their evdev codes, which do not depend on the layout for the keys the surface
/// uses (Escape, Tab, Enter, Space, arrows, Menu, Delete); no keymap is loaded.
///
/// Threading: the surface's thread; its listeners run inside the backend's `dispatch()`.
final class WaylandInput {
    /// What the seat's devices say, for the backend to pass on.
    enum Event { case pointer(PointerEvent), key(KeyEvent) }

    /// The registry name of the seat's global.
    let name: UInt32
    /// The `wl_seat` (its data device is `WaylandDropTarget`'s).
    let seat: OpaquePointer
    private let version: UInt32
    private var pointer: OpaquePointer?
    private var touch: OpaquePointer?
    private var keyboard: OpaquePointer?
    /// The backend's surface for a `wl_surface`, nil for one that is not (or no longer) its own.
    private let surfaceFor: (OpaquePointer?) -> WaylandSurface?
    private let send: (Event) -> Void

    private weak var pointerFocus: WaylandSurface?
    private var pointerAt = (x: 0.0, y: 0.0)
    private var lastTime: UInt32 = 0
    private weak var touchFocus: WaylandSurface?
    private var touchID: Int32?
    private var touchAt = (x: 0.0, y: 0.0)
    private weak var keyboardFocus: WaylandSurface?
    private var shift = false

    init(name: UInt32, seat: OpaquePointer, version: UInt32,
         surfaceFor: @escaping (OpaquePointer?) -> WaylandSurface?, send: @escaping (Event) -> Void) {
        self.name = name; self.seat = seat; self.version = version
        self.surfaceFor = surfaceFor; self.send = send
        wl_seat_add_listener(seat, seatListener, Unmanaged.passUnretained(self).toOpaque())
    }

    /// The evdev key codes the surface acts on (linux/input-event-codes.h).
    static func key(code: UInt32, shift: Bool) -> KeyEvent.Key {
        switch code {
        case 1: return .escape
        case 15: return shift ? .backTab : .tab
        case 28, 96: return .enter   // Enter, keypad Enter
        case 57: return .space
        case 103: return .up
        case 105: return .left
        case 106: return .right
        case 108: return .down
        case 111: return .delete
        case 127, 139: return .menu  // KEY_COMPOSE (the PC keyboard's Menu key), KEY_MENU
        default: return .other(code)
        }
    }

    fileprivate func capabilities(_ caps: UInt32) {
        let me = Unmanaged.passUnretained(self).toOpaque()
        let hasPointer = caps & UInt32(WL_SEAT_CAPABILITY_POINTER.rawValue) != 0
        if hasPointer, pointer == nil, let p = wl_seat_get_pointer(seat) {
            pointer = p
            wl_pointer_add_listener(p, pointerListener, me)
        } else if !hasPointer, let p = pointer {
            release(pointer: p)
        }
        let hasTouch = caps & UInt32(WL_SEAT_CAPABILITY_TOUCH.rawValue) != 0
        if hasTouch, touch == nil, let t = wl_seat_get_touch(seat) {
            touch = t
            wl_touch_add_listener(t, touchListener, me)
        } else if !hasTouch, let t = touch {
            release(touch: t)
        }
        let hasKeyboard = caps & UInt32(WL_SEAT_CAPABILITY_KEYBOARD.rawValue) != 0
        if hasKeyboard, keyboard == nil, let k = wl_seat_get_keyboard(seat) {
            keyboard = k
            wl_keyboard_add_listener(k, keyboardListener, me)
        } else if !hasKeyboard, let k = keyboard {
            release(keyboard: k)
        }
    }

    private func release(pointer p: OpaquePointer) {
        if version >= 3 { wl_pointer_release(p) } else { wl_pointer_destroy(p) }
        pointer = nil
        pointerFocus = nil
    }
    private func release(touch t: OpaquePointer) {
        if version >= 3 { wl_touch_release(t) } else { wl_touch_destroy(t) }
        touch = nil
        touchFocus = nil
        touchID = nil
    }
    private func release(keyboard k: OpaquePointer) {
        if version >= 3 { wl_keyboard_release(k) } else { wl_keyboard_destroy(k) }
        keyboard = nil
        keyboardFocus = nil
    }

    /// Releases the seat and its devices (the global is gone or the backend ends).
    func destroy() {
        if let p = pointer { release(pointer: p) }
        if let t = touch { release(touch: t) }
        if let k = keyboard { release(keyboard: k) }
        if version >= 5 { wl_seat_release(seat) } else { wl_seat_destroy(seat) }
    }

    private func pointerEvent(_ surface: WaylandSurface, _ kind: PointerEvent.Kind, at point: (x: Double, y: Double)) {
        let p = surface.areaPoint(surfaceX: point.x, surfaceY: point.y)
        send(.pointer(PointerEvent(output: surface.outputID, kind: kind, x: p.x, y: p.y, time: lastTime)))
    }

    fileprivate func pointerEntered(_ proxy: OpaquePointer?, x: wl_fixed_t, y: wl_fixed_t) {
        pointerFocus = surfaceFor(proxy)
        pointerAt = (wl_fixed_to_double(x), wl_fixed_to_double(y))
        if let s = pointerFocus { pointerEvent(s, .motion, at: pointerAt) }
    }
    fileprivate func pointerLeft() {
        if let s = pointerFocus { pointerEvent(s, .leave, at: pointerAt) }
        pointerFocus = nil
    }
    fileprivate func pointerMoved(time: UInt32, x: wl_fixed_t, y: wl_fixed_t) {
        lastTime = time
        pointerAt = (wl_fixed_to_double(x), wl_fixed_to_double(y))
        if let s = pointerFocus { pointerEvent(s, .motion, at: pointerAt) }
    }
    fileprivate func pointerButton(time: UInt32, button: UInt32, pressed: Bool) {
        lastTime = time
        // BTN_LEFT, BTN_RIGHT, BTN_MIDDLE (linux/input-event-codes.h); other buttons are not used.
        let number: Int
        switch button {
        case 0x110: number = 1
        case 0x111: number = 3
        case 0x112: number = 2
        default: return
        }
        if let s = pointerFocus { pointerEvent(s, pressed ? .press(button: number) : .release(button: number), at: pointerAt) }
    }

    fileprivate func touchDown(time: UInt32, surface proxy: OpaquePointer?, id: Int32, x: wl_fixed_t, y: wl_fixed_t) {
        guard touchID == nil, let s = surfaceFor(proxy) else { return }   // the first finger only
        lastTime = time
        touchID = id
        touchFocus = s
        touchAt = (wl_fixed_to_double(x), wl_fixed_to_double(y))
        pointerEvent(s, .motion, at: touchAt)
        pointerEvent(s, .press(button: 1), at: touchAt)
    }
    fileprivate func touchMoved(time: UInt32, id: Int32, x: wl_fixed_t, y: wl_fixed_t) {
        guard id == touchID, let s = touchFocus else { return }
        lastTime = time
        touchAt = (wl_fixed_to_double(x), wl_fixed_to_double(y))
        pointerEvent(s, .motion, at: touchAt)
    }
    fileprivate func touchUp(time: UInt32, id: Int32) {
        guard id == touchID else { return }
        lastTime = time
        if let s = touchFocus { pointerEvent(s, .release(button: 1), at: touchAt) }
        touchID = nil
        touchFocus = nil
    }
    fileprivate func touchCancelled() {
        if let s = touchFocus { pointerEvent(s, .leave, at: touchAt) }
        touchID = nil
        touchFocus = nil
    }

    fileprivate func keyboardEntered(_ proxy: OpaquePointer?) { keyboardFocus = surfaceFor(proxy) }
    fileprivate func keyboardLeft() { keyboardFocus = nil; shift = false }
    fileprivate func keyChanged(code: UInt32, pressed: Bool) {
        guard pressed, let s = keyboardFocus else { return }
        send(.key(KeyEvent(output: s.outputID, key: Self.key(code: code, shift: shift))))
    }
    /// Shift is modifier 0 in the keymaps compositors send (xkeyboard-config's "Shift").
    fileprivate func modifiers(depressed: UInt32) { shift = depressed & 1 != 0 }
}

private func input(_ data: UnsafeMutableRawPointer?) -> WaylandInput {
    Unmanaged<WaylandInput>.fromOpaque(data!).takeUnretainedValue()
}

nonisolated(unsafe) private let seatListener: UnsafeMutablePointer<wl_seat_listener> = {
    let listener = UnsafeMutablePointer<wl_seat_listener>.allocate(capacity: 1)
    listener.initialize(to: wl_seat_listener(
        capabilities: { data, _, caps in input(data).capabilities(caps) },
        name: { _, _, _ in }))
    return listener
}()

nonisolated(unsafe) private let pointerListener: UnsafeMutablePointer<wl_pointer_listener> = {
    let listener = UnsafeMutablePointer<wl_pointer_listener>.allocate(capacity: 1)
    listener.initialize(to: wl_pointer_listener(
        enter: { data, _, _, surface, x, y in input(data).pointerEntered(surface, x: x, y: y) },
        leave: { data, _, _, _ in input(data).pointerLeft() },
        motion: { data, _, time, x, y in input(data).pointerMoved(time: time, x: x, y: y) },
        button: { data, _, _, time, button, state in
            input(data).pointerButton(time: time, button: button, pressed: state == UInt32(WL_POINTER_BUTTON_STATE_PRESSED.rawValue))
        },
        axis: { _, _, _, _, _ in },
        frame: { _, _ in },
        axis_source: { _, _, _ in },
        axis_stop: { _, _, _, _ in },
        axis_discrete: { _, _, _, _ in },
        axis_value120: { _, _, _, _ in }))
    return listener
}()

nonisolated(unsafe) private let touchListener: UnsafeMutablePointer<wl_touch_listener> = {
    let listener = UnsafeMutablePointer<wl_touch_listener>.allocate(capacity: 1)
    listener.initialize(to: wl_touch_listener(
        down: { data, _, _, time, surface, id, x, y in input(data).touchDown(time: time, surface: surface, id: id, x: x, y: y) },
        up: { data, _, _, time, id in input(data).touchUp(time: time, id: id) },
        motion: { data, _, time, id, x, y in input(data).touchMoved(time: time, id: id, x: x, y: y) },
        frame: { _, _ in },
        cancel: { data, _ in input(data).touchCancelled() },
        shape: { _, _, _, _, _ in },
        orientation: { _, _, _, _ in }))
    return listener
}()

nonisolated(unsafe) private let keyboardListener: UnsafeMutablePointer<wl_keyboard_listener> = {
    let listener = UnsafeMutablePointer<wl_keyboard_listener>.allocate(capacity: 1)
    listener.initialize(to: wl_keyboard_listener(
        keymap: { _, _, _, fd, _ in close(fd) },   // not read: see WaylandInput
        enter: { data, _, _, surface, _ in input(data).keyboardEntered(surface) },
        leave: { data, _, _, _ in input(data).keyboardLeft() },
        key: { data, _, _, _, key, state in
            input(data).keyChanged(code: key, pressed: state == UInt32(WL_KEYBOARD_KEY_STATE_PRESSED.rawValue))
        },
        modifiers: { data, _, _, depressed, _, _, _ in input(data).modifiers(depressed: depressed) },
        repeat_info: { _, _, _, _ in }))
    return listener
}()
