// The D-Bus probe for BusProxyTests: through `SessionBus`, reads the property `Greeting` of the
// test's service `org.example.A` (declared) and of `org.example.B` (not declared), lists the
// names it can see, tries the test's real bus address directly (`WIDGETHOST_TEST_REAL_BUS`),
// and tells whether it has a bus address and may make a Unix socket. It declares
// `org.example.A` unless `WIDGETHOST_TEST_BUS_UNDECLARED` is set in the host's environment
// (the worker keeps `WIDGETHOST_*` variables), so one fixture is both bundles. With
// `WIDGETHOST_TEST_SYSTEM_BUS` set it is the system-bus probe: it declares `org.example.A` as a
// system-bus name (`systemBusNames`, its signal `bus: "system"`), no session-bus name, and
// probes through `SessionBus.system()` and `DBUS_SYSTEM_BUS_ADDRESS`.
import FoundationEssentials
import OpenWidgetKit
import SessionBus
#if canImport(Glibc)
import Glibc
#endif

struct ProbeEntry: TimelineEntry {
    let date: Date
    let text: String
}

/// The last element of a D-Bus error name (`ServiceUnknown`, `NoBus`): the widget's text is
/// one line of at most 64 characters in `out/<id>.json`.
func short(_ error: BusError) -> String { String(error.name.split(separator: ".").last ?? "?") }

/// Whether this is the system-bus probe.
let onSystemBus = getenv("WIDGETHOST_TEST_SYSTEM_BUS") != nil

/// The bus the probe talks to: the system bus for the system-bus probe, else the session bus.
func bus() throws(BusError) -> SessionBus { onSystemBus ? try SessionBus.system() : try SessionBus.session() }

func greeting(of name: String) -> String {
    do {
        let value = try bus().property("Greeting", interface: "org.example.Probe", destination: name, path: "/org/example/Probe")
        return value.stringValue ?? value.description
    } catch {
        return short(error)
    }
}

/// `A:<greeting of A> B:<greeting of B> N:<org.example names seen> R:<the real bus behind the
/// proxy> P:<fixed|other|none: the bus address> U:<ok|EACCES: a Unix socket>`, and for the
/// system-bus probe ` S:<none|set: the session bus address>`.
func probe() -> String {
    var parts = ["A:" + greeting(of: "org.example.A"), "B:" + greeting(of: "org.example.B")]
    do {
        let names = try bus().listNames().filter { $0.hasPrefix("org.example.") }.sorted()
        parts.append("N:" + names.map { String($0.dropFirst("org.example.".count)) }.joined(separator: ","))
    } catch {
        parts.append("N:" + short(error))
    }
    if let real = getenv("WIDGETHOST_TEST_REAL_BUS") {
        do { _ = try SessionBus(address: String(cString: real)); parts.append("R:connected") } catch { parts.append("R:" + short(error)) }
    }
    let address = getenv(onSystemBus ? "DBUS_SYSTEM_BUS_ADDRESS" : "DBUS_SESSION_BUS_ADDRESS").map { String(cString: $0) }
    let fixed = onSystemBus ? "unix:path=/run/widgethost-bus/system" : "unix:path=/run/widgethost-bus/bus"
    parts.append("P:" + (address == nil ? "none" : address == fixed ? "fixed" : "other"))
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    parts.append(fd >= 0 ? "U:ok" : (errno == EACCES ? "U:EACCES" : "U:\(errno)"))
    if fd >= 0 { close(fd) }
    if onSystemBus { parts.append("S:" + (getenv("DBUS_SESSION_BUS_ADDRESS") == nil ? "none" : "set")) }
    return parts.joined(separator: " ")
}

struct ProbeProvider: TimelineProvider {
    func placeholder(in context: Context) -> ProbeEntry { ProbeEntry(date: Date(), text: "probing") }
    func getSnapshot(in context: Context, completion: @escaping (ProbeEntry) -> Void) { completion(placeholder(in: context)) }
    func getTimeline(in context: Context, completion: @escaping (Timeline<ProbeEntry>) -> Void) {
        // A reload due within a minute keeps the worker (and its bus proxy) running
        // (`WorkerRest`); with `WIDGETHOST_TEST_BUS_REST` nothing is due and the worker rests.
        let policy: TimelineReloadPolicy = getenv("WIDGETHOST_TEST_BUS_REST") == nil ? .after(Date().addingTimeInterval(60)) : .never
        completion(Timeline(entries: [ProbeEntry(date: Date(), text: probe())], policy: policy))
    }
}

struct BusProbeWidget: Widget {
    var body: some WidgetConfiguration {
        StaticConfiguration(kind: "busprobe", provider: ProbeProvider()) { entry in Text(entry.text) }
            .supportedFamilies([.systemSmall])
    }
}

@_cdecl("widget_plugin_entry_v1") public func widgetPluginEntry() -> UnsafeRawPointer {
    let declared = getenv("WIDGETHOST_TEST_BUS_UNDECLARED") == nil ? ["org.example.A"] : []
    return WidgetPluginExport.entry(BusProbeWidget.self, bundleId: "org.example.busprobe",
                                    busNames: onSystemBus ? [] : declared, systemBusNames: onSystemBus ? declared : [],
                                    busSignals: [BusSignal(sender: "org.example.A", interface: "org.example.Probe", member: "Changed",
                                                           path: "/org/example/Probe", bus: onSystemBus ? "system" : nil)])
}
