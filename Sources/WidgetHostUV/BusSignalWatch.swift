import CBusLoader
import Logging
import WidgetHostCore
#if canImport(Glibc)
import Glibc
#endif

/// One of the host's own bus connections (session or system bus), for the signals bundles reload on (`BusWatch`,
/// docs/limits.md "D-Bus"): a match rule per watch (`AddMatch`, sent without waiting), the
/// connection's descriptor under a `uv_poll`, and each signal that matches a bundle's watch
/// handed to `arrived(bundle, what)`. Made only when some bundle declares a signal, with
/// libdbus loaded then (`CBusLoader`), so a host without such bundles never maps it; no bus:
/// nil (the host logged that once already); a bus that refuses the connection: one log line,
/// nil. Loop thread only.
public final class BusSignalWatch {
    private let bus: OpaquePointer
    private var poll: UVPoll?
    private var watches: [String: [BusWatch]] = [:]
    private var rules: Set<String> = []
    private let logger: Logger
    private let busName: String
    private let arrived: (String, String) -> Void

    /// `busName`: how the log names the bus (`session bus`, `system bus`).
    public init?(loop: UVLoop, address: String?, busName: String = "session bus", logger: Logger,
                 arrived: @escaping (_ bundle: String, _ what: String) -> Void) {
        self.logger = logger
        self.busName = busName
        self.arrived = arrived
        // No bus: the host said so once already, for the bundles' proxies (`BusFolders`).
        guard let address, !address.isEmpty else { return nil }
        var error = [CChar](repeating: 0, count: 512)
        guard let b = widgethost_bus_open(address, &error, error.count) else {
            logger.warning("\(busName) signals are not watched: \(Self.text(error))")
            return nil
        }
        bus = b
        guard let p = UVPoll(loop: loop, fd: widgethost_bus_fd(b), { [weak self] _ in self?.readable() }) else {
            logger.warning("\(busName) signals are not watched: the connection has no descriptor")
            widgethost_bus_close(b)
            return nil
        }
        poll = p
    }

    deinit { close() }

    /// Follows `watches` (bundle name → its watches): rules no longer wanted are removed, new
    /// ones added.
    public func update(_ watches: [String: [BusWatch]]) {
        guard poll != nil else { return }
        self.watches = watches
        let wanted = Set(watches.values.flatMap { $0.map(\.rule) })
        for r in rules.subtracting(wanted) { widgethost_bus_match(bus, r, 0) }
        for r in wanted.subtracting(rules) { widgethost_bus_match(bus, r, 1) }
        rules = wanted
    }

    private func readable() {
        guard widgethost_bus_read(bus) != 0 else {
            logger.warning("\(busName) signals are not watched any more: the bus closed the connection")
            close(); return
        }
        let size = 256
        var interface = [CChar](repeating: 0, count: size), member = interface, path = interface, arg0 = interface
        while widgethost_bus_next_signal(bus, &interface, &member, &path, &arg0, size) != 0 {
            let i = Self.text(interface), m = Self.text(member), p = Self.text(path), a = Self.text(arg0)
            for (bundle, list) in watches.sorted(by: { $0.key < $1.key }) {
                if let w = list.first(where: { $0.matches(interface: i, member: m, path: p, arg0: a.isEmpty ? nil : a) }) {
                    arrived(bundle, w.what)
                }
            }
        }
    }

    /// A C buffer's text, up to its NUL.
    private static func text(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    public func close() {
        guard let p = poll else { return }
        poll = nil
        p.close()
        widgethost_bus_close(bus)
    }
}
