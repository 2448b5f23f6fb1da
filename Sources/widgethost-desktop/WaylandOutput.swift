import CWayland
import WidgetDesktopScene
#if canImport(Glibc)
import Glibc
#endif

/// One `wl_output` global as the compositor describes it (wl_output v4 and, where offered,
/// `zxdg_output_v1`): its connector, make, model, serial, size in pixels and in logical points,
/// and its scale. `WaylandLayerShellBackend` reports it as a `DisplayOutput` once the compositor
/// has described it completely (`isReady`).
///
/// Threading: the surface's thread; its listeners run inside the backend's `dispatch()`.
final class WaylandOutput {
    /// The registry name of the global: the `DisplayOutput.ID` while it stays connected (an
    /// output unplugged and plugged again is a new global with a new name).
    let name: UInt32
    let proxy: OpaquePointer
    let version: UInt32
    var xdgOutput: OpaquePointer?
    /// Called when an event changed what `displayOutput` reports.
    var changed: () -> Void = {}

    var connector = ""
    var make = ""
    var model = ""
    var description = ""
    /// The current mode in pixels, before the transform.
    var modePixels = (width: 0, height: 0)
    var transform: Int32 = 0
    /// `wl_output.scale`: the integer scale (sway rounds a fractional one up).
    var integerScale = 1
    /// `zxdg_output_v1.logical_size`: the size in logical points, after the transform.
    var logicalSize: (width: Int, height: Int)?
    /// The scale the compositor prefers for this output's surface (`wp_fractional_scale_v1`, in
    /// 120ths), once it has said so.
    var preferredScale120: UInt32?
    private var done = false
    private var xdgDone = false

    init(name: UInt32, proxy: OpaquePointer, version: UInt32) {
        self.name = name; self.proxy = proxy; self.version = version
        wl_output_add_listener(proxy, outputListener, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Asks `manager` (`zxdg_output_manager_v1`) for the output's logical size and name.
    func describe(with manager: OpaquePointer) {
        guard xdgOutput == nil, let xdg = zxdg_output_manager_v1_get_xdg_output(manager, proxy) else { return }
        xdgOutput = xdg
        xdgDone = false
        zxdg_output_v1_add_listener(xdg, xdgOutputListener, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Described completely: `wl_output.done` came (version 2 on), and the xdg-output's logical
    /// size when there is one.
    var isReady: Bool { (done || version < 2) && (xdgOutput == nil || xdgDone || logicalSize != nil) }

    /// The connector's name ("HEADLESS-1", "DP-1"); "wl_output-NAME" from a compositor that
    /// tells none.
    var connectorName: String { connector.isEmpty ? "wl_output-\(name)" : connector }

    /// The pixel size after the output's transform (90° and 270° swap width and height).
    var transformedPixels: (width: Int, height: Int) {
        transform & 1 == 1 ? (modePixels.height, modePixels.width) : modePixels
    }

    /// Pixels per logical point for a surface on this output. `viewporter`: buffers of any size
    /// can be shown at a logical size, so a fractional scale is used as such — the compositor's
    /// preferred one, else the ratio of pixels to logical points xdg-output tells; without it, the
    /// integer `wl_output.scale` (`wl_surface.set_buffer_scale`).
    func scale(viewporter: Bool) -> Double {
        guard viewporter else { return Double(max(1, integerScale)) }
        if let preferred = preferredScale120, preferred > 0 { return Double(preferred) / 120 }
        if let logical = logicalSize, logical.width > 0, transformedPixels.width > 0 {
            return (Double(transformedPixels.width) / Double(logical.width) * 120).rounded() / 120
        }
        return Double(max(1, integerScale))
    }

    func displayOutput(viewporter: Bool, isPrimary: Bool) -> DisplayOutput {
        let scale = self.scale(viewporter: viewporter)
        let pixels = transformedPixels
        let logical = logicalSize.map { (Double($0.width), Double($0.height)) }
            ?? (Double(pixels.width) / Double(max(1, integerScale)), Double(pixels.height) / Double(max(1, integerScale)))
        return DisplayOutput(id: name, connector: connectorName,
                             make: make, model: model, serial: Self.serial(in: description, make: make, model: model, connector: connector),
                             logicalWidth: logical.0, logicalHeight: logical.1, scale: scale, isPrimary: isPrimary)
    }

    /// The serial number in an output's description, which wlroots writes as
    /// "MAKE MODEL SERIAL (CONNECTOR)" (Wayland has no serial event): what stands between the
    /// make and model and the connector; "" when the description is not of that form.
    static func serial(in description: String, make: String, model: String, connector: String) -> String {
        let prefix = make + " " + model
        let suffix = " (" + connector + ")"
        guard !make.isEmpty, !connector.isEmpty, description.hasPrefix(prefix), description.hasSuffix(suffix),
              description.count >= prefix.count + suffix.count else { return "" }
        let middle = description.dropFirst(prefix.count).dropLast(suffix.count)
        guard middle.isEmpty || middle.first == " " else { return "" }
        let serial = String(middle.drop { $0 == " " })
        return serial == "Unknown" ? "" : serial
    }

    /// Releases the compositor's objects (the global is gone or the backend ends).
    func destroy() {
        if let xdg = xdgOutput { zxdg_output_v1_destroy(xdg); xdgOutput = nil }
        if version >= 3 { wl_output_release(proxy) } else { wl_output_destroy(proxy) }
    }

    fileprivate func finished() { done = true; changed() }
    fileprivate func xdgFinished() { xdgDone = true; changed() }
}

private func output(_ data: UnsafeMutableRawPointer?) -> WaylandOutput {
    Unmanaged<WaylandOutput>.fromOpaque(data!).takeUnretainedValue()
}

private func text(_ pointer: UnsafePointer<CChar>?) -> String { pointer.map { String(cString: $0) } ?? "" }

nonisolated(unsafe) private let outputListener: UnsafeMutablePointer<wl_output_listener> = {
    let listener = UnsafeMutablePointer<wl_output_listener>.allocate(capacity: 1)
    listener.initialize(to: wl_output_listener(
        geometry: { data, _, _, _, _, _, _, make, model, transform in
            let o = output(data)
            o.make = text(make); o.model = text(model); o.transform = transform
        },
        mode: { data, _, flags, width, height, _ in
            guard flags & UInt32(WL_OUTPUT_MODE_CURRENT.rawValue) != 0 else { return }
            output(data).modePixels = (Int(width), Int(height))
        },
        done: { data, _ in output(data).finished() },
        scale: { data, _, factor in output(data).integerScale = Int(factor) },
        name: { data, _, name in output(data).connector = text(name) },
        description: { data, _, description in output(data).description = text(description) }))
    return listener
}()

nonisolated(unsafe) private let xdgOutputListener: UnsafeMutablePointer<zxdg_output_v1_listener> = {
    let listener = UnsafeMutablePointer<zxdg_output_v1_listener>.allocate(capacity: 1)
    listener.initialize(to: zxdg_output_v1_listener(
        logical_position: { _, _, _, _ in },
        logical_size: { data, _, width, height in output(data).logicalSize = (Int(width), Int(height)) },
        done: { data, _ in output(data).xdgFinished() },
        name: { data, _, name in
            let o = output(data)
            if o.connector.isEmpty || o.version < 4 { o.connector = text(name) }
        },
        description: { data, _, description in
            let o = output(data)
            if o.description.isEmpty || o.version < 4 { o.description = text(description) }
        }))
    return listener
}()
