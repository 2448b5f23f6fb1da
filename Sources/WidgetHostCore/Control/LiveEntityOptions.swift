/// What `gallery`, `configure` and the Edit Widget form do before they read the catalog: ask
/// the host running with their config, if one runs, to ask its placed bundles' workers for
/// their entity options again (`{"op":"entities"}`, `EntityOptionsOnDemand`), so the cached
/// manifests (`BundleManifestCache`) they read offer the players and calendars there now. No
/// host: nothing is asked and the cache is read as it is. Blocks for at most `timeoutSeconds`
/// (the host answers within its own bound, `EntityOptionsOnDemand.waitSeconds`); any thread.
public enum LiveEntityOptions {
    public static let timeoutSeconds = 10

    /// nil when no host runs with `config` (or it answered); otherwise why the options could not
    /// be refreshed (a warning: the cached ones are read).
    public static func refresh(config: HostConfig, environment: [String: String] = ProcessEnvironment.current(), bundle: String? = nil) -> String? {
        let socket = ControlSocketPath.resolve(config.paths, environment: environment)
        do {
            let r = try ControlSocketClient.send(ControlRequest(op: .entities, bundle: bundle), to: socket, timeout: timeoutSeconds)
            return r.ok ? nil : "the running host did not list the entities again: \(r.error ?? "no reason given")"
        } catch {
            return error.noHost ? nil : "the running host did not list the entities again: \(error)"
        }
    }
}
