import WidgetHostCore

/// Which desktop widgets go on which monitor (docs/desktop.md "Monitors"): each widget's
/// selector (`Layout.output(of:)`: `primary`, `all`, a connector, or a monitor's identity) matched
/// against the outputs connected now. A connector names the monitor first found on it: its
/// identity (make, model, serial) is remembered, and from then on the widgets follow that
/// monitor to whichever connector it is plugged into, and wait — placed nowhere — while it is
/// unplugged, even when another monitor takes its connector. A monitor that says no make, model
/// or serial (Xvfb, a headless compositor), or the same as another one connected with it, is
/// known by its connector alone.
///
/// Pure value (its memory is the remembered identities); the surface's thread keeps one for its life.
public struct OutputAssignment: Equatable, Sendable {
    /// Connector selector → the identity of the monitor first seen on that connector.
    public private(set) var remembered: [String: String] = [:]

    public init() {}

    /// Where the widgets go now.
    public struct Placement: Equatable, Sendable {
        /// Output id → its widgets, in the layout's (grid) order; an output with none is absent.
        public var widgets: [DisplayOutput.ID: [String]] = [:]
        /// Selector → the widgets waiting for it (no monitor matches it now), in grid order.
        public var waiting: [String: [String]] = [:]
    }

    /// A monitor's identity as sway names outputs: make, model and serial joined by spaces
    /// (the parts it does not say left out); empty when it says none.
    public static func identity(of o: DisplayOutput) -> String {
        [o.make, o.model, o.serial].filter { !$0.isEmpty }.joined(separator: " ")
    }

    /// Assigns `layout`'s widgets to `outputs`, remembering the monitor each connector selector
    /// finds for the first time.
    public mutating func assign(_ layout: DesktopViewMessage.Layout, to outputs: [DisplayOutput]) -> Placement {
        var result = Placement()
        var resolved: [String: [DisplayOutput.ID]] = [:]
        for id in layout.widgets {
            let selector = layout.output(of: id)
            let targets = resolved[selector] ?? resolve(selector, outputs)
            resolved[selector] = targets
            if targets.isEmpty { result.waiting[selector, default: []].append(id) }
            for o in targets { result.widgets[o, default: []].append(id) }
        }
        return result
    }

    /// The outputs `selector` means now.
    private mutating func resolve(_ selector: String, _ outputs: [DisplayOutput]) -> [DisplayOutput.ID] {
        switch selector {
        case OutputSelector.all: return outputs.map(\.id)
        case OutputSelector.primary: return (outputs.first(where: \.isPrimary) ?? outputs.first).map { [$0.id] } ?? []
        default: break
        }
        if let o = outputs.first(where: { Self.identity(of: $0) == selector }) { return [o.id] }
        if let known = remembered[selector] {
            // A twin that came later (same identity) loses to the one on the connector named.
            let same = outputs.filter { Self.identity(of: $0) == known }
            return (same.first { $0.connector == selector } ?? same.first).map { [$0.id] } ?? []
        }
        guard let o = outputs.first(where: { $0.connector == selector }) else { return [] }
        // Remembered only when it tells this monitor from the others: twins without serials
        // (nested compositors' outputs are all "wayland wayland") are known by connector.
        let identity = Self.identity(of: o)
        if !identity.isEmpty, outputs.filter({ Self.identity(of: $0) == identity }).count == 1 { remembered[selector] = identity }
        return [o.id]
    }
}
