import OpenWidgetKit

/// The options of a bundle's `AppEntity` parameters (its queries' `suggestedEntities()`) as its
/// serving worker sees them. `describe` runs under the base sandbox (`WorkerSettings`), where a
/// query finds nothing the bundle declares access to (a calendar folder, `/proc/net/dev` of the
/// host); such a bundle is asked `describe` once more by its serving worker, under its own
/// sandbox, and only the entity parameters' options and defaults are taken from that answer (the
/// rest of the manifest stays the validated one). The refreshed manifest is cached, so the
/// gallery and the Edit Widget form offer the same entities. Loop thread only.
extension PluginRegistry {
    /// Whether `manifest` has an entity parameter and declares access beyond the base sandbox.
    static func needsEntityRefresh(_ manifest: BundleManifest) -> Bool {
        let entities = manifest.widgets.contains { $0.parameters.contains { $0.type == "entity" } }
        let access = [manifest.filesystems, manifest.permissions, manifest.appGroups, manifest.busNames, manifest.systemBusNames].contains { $0?.isEmpty == false }
        return entities && access
    }

    /// `manifest` with the entity parameters' options and defaults of `served` (same kind, same
    /// name, still an entity). Pure.
    static func withEntityOptions(_ manifest: BundleManifest, from served: BundleManifest) -> BundleManifest {
        var out = manifest
        for (w, widget) in out.widgets.enumerated() {
            guard let other = served.widgets.first(where: { $0.kind == widget.kind }) else { continue }
            for (p, parameter) in widget.parameters.enumerated() where parameter.type == "entity" {
                guard let q = other.parameters.first(where: { $0.name == parameter.name && $0.type == "entity" }) else { continue }
                out.widgets[w].parameters[p].options = q.options
                out.widgets[w].parameters[p].defaultValue = q.defaultValue
            }
        }
        return out
    }

    /// Asks `bundle`'s serving worker for its entity options (`needsEntityRefresh`), once per
    /// loaded bundle and only while a kind of it is placed (an unplaced bundle keeps no worker:
    /// it is asked when its first worker starts); a failed or refused answer keeps the options
    /// it had (logged at debug level). Asked again on demand: `askEntityOptions`.
    func refreshEntityOptions(_ bundle: LoadedBundle) {
        guard !bundle.entityOptionsAsked else { return }
        // Most bundles need none: decided once, not at every call.
        guard Self.needsEntityRefresh(bundle.manifest) else { bundle.entityOptionsAsked = true; return }
        guard isNeeded(bundle.name, bundle.manifest) else { return }
        bundle.entityOptionsAsked = true
        askEntityOptions(bundle) { _ in }
    }

    /// Whether `bundle` may be asked for its entity options again now: it needs a refresh, a
    /// kind of it is placed and its worker serves (runs, or rests and is started by the call);
    /// a worker that exited (a crash, a quarantine) is not started for it.
    func mayAskEntityOptions(_ bundle: LoadedBundle) -> Bool {
        Self.needsEntityRefresh(bundle.manifest) && isNeeded(bundle.name, bundle.manifest) && bundle.isServing
    }

    /// Sends `describe` to `bundle`'s worker (starting a resting one) and takes the entity
    /// options of its answer into the manifest and the cache; `done` gets whether they changed
    /// (false also when the answer failed: the options it had are kept).
    func askEntityOptions(_ bundle: LoadedBundle, done: @escaping (Bool) -> Void) {
        bundle.entityOptionsAsked = true  // `call` asks a bundle never asked: not twice
        call(bundle, WireRequest(op: .describe)) { [weak self] result in
            guard let self, self.bundles[bundle.name] === bundle else { done(false); return }
            switch result {
            case .failure(let f):
                self.logger.debug("\(bundle.name): its entities could not be listed under its own sandbox: \(f.description)")
                done(false)
            case .success(let r):
                guard Self.problem(with: r) == nil, let served = r.manifest else {
                    self.logger.debug("\(bundle.name): its entities could not be listed under its own sandbox: \(r.error ?? "no manifest")")
                    done(false)
                    return
                }
                let updated = Self.withEntityOptions(bundle.manifest, from: served)
                guard updated != bundle.manifest else { done(false); return }
                bundle.manifest = updated
                self.manifestCache?.store(updated, for: bundle.file)
                done(true)
            }
        }
    }
}
