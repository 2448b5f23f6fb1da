import FoundationEssentials
import OpenWidgetKit

extension WidgetInstance {
    /// The entry on screen (nil before the first timeline arrived).
    public var currentEntry: WireEntry? {
        guard let i = shownIndex ?? entryIndex(at: Date()), entries.indices.contains(i) else { return nil }
        return entries[i]
    }
}

extension WidgetHost {
    /// A click on widget `id` (i3bar click event, `widgethost click`): runs the addressed
    /// control's intent in the bundle's worker (`perform`), then reloads the widget once at once
    /// (reason "interaction: …"), and the kinds the intent asked `WidgetCenter` to reload; or,
    /// with no control to run, opens the entry's URL with `openURL` when its scheme is one of
    /// `defaults.openSchemes` (`OpenableURL`). `reply` gets what was done.
    public func click(id: String, button: Int? = nil, target: String? = nil, reply: @escaping (ControlResponse) -> Void) {
        guard let inst = scheduler.instances[id] else {
            let known = scheduler.instances.keys.sorted().joined(separator: ", ")
            reply(.failure("no widget \"\(id)\" (widgets: \(known.isEmpty ? "none" : known))")); return
        }
        guard let entry = inst.currentEntry else { reply(.failure("\(id) has no entry on screen yet")); return }
        switch InteractionTargets.resolve(entry.view, button: button, target: target) {
        case .nothing(let why):
            reply(.failure("\(id): \(why)"))
        case .open(let url):
            if let why = OpenableURL.refusal(url, allowed: config.defaults.openSchemes) {
                reply(.failure("\(id): its URL was not opened: \(why)")); return
            }
            openURL(url)
            reply(ControlResponse(ok: true, message: "opened \(url)"))
        case .perform(let action):
            guard let bundle = registry.bundles[inst.spec.bundleName] else {
                reply(.failure("bundle \(inst.spec.bundleName) is not loaded")); return
            }
            let spec = inst.spec
            let name = action.title ?? action.intent
            let req = WireRequest(op: .perform, kind: spec.kind, family: spec.family, configuration: spec.parameters,
                                  colorScheme: spec.colorScheme == .light ? nil : spec.colorScheme, action: action,
                                  renderingMode: spec.renderingMode)
            registry.call(bundle, req) { [weak self] result in
                guard let self else { return }
                switch result {
                case .failure(let f):
                    reply(.failure("\(id): \(name) failed: \(f.description)"))
                case .success(let r) where !r.ok:
                    reply(.failure("\(id): \(name) failed: \(r.error ?? "no reason given")"))
                case .success(let r):
                    // The one reload after an interaction is not charged to the budget (as in WidgetKit).
                    self.scheduler.reload(.interaction("interaction: \(name) on \(id)")) { $0.id == id }
                    let kinds = Set(r.reloadRequests ?? [])
                    if !kinds.isEmpty {
                        self.scheduler.reload(.request("WidgetCenter reload from \(name)")) { s in
                            s.id != id && s.bundleName == spec.bundleName && (kinds.contains("*") || kinds.contains(s.kind))
                        }
                    }
                    reply(ControlResponse(ok: true, message: "performed \(name) (\(action.intent)) on \(id)"))
                }
            }
        }
    }
}
