import FoundationEssentials
import OpenWidgetKit

/// What the host tells the desktop view stream (`DesktopViewStream`): the `desktop` section
/// resolved as docs/desktop.md says, and each desktop widget's entry — the tree the scheduler
/// shows, which is the tree the picture outputs draw. Loop thread only.
extension WidgetHost {
    /// Connects the stream to the scheduler's entries and the workers' lives (from `init`);
    /// instances come and go in `replan`, which refreshes the stream.
    func connectDesktopView() {
        scheduler.onShown = { [weak self] inst, entry in
            guard let self else { return }
            self.desktopView.update(self.desktopWidget(inst, entry: entry))
        }
        registry.onWorkerChanged = { [weak self] _ in self?.refreshDesktopView() }
    }

    /// The desktop's widget ids in grid order: the section's `widgets`, or when it lists none
    /// every widget with a picture output, by id.
    func desktopWidgetIDs() -> [String] {
        let listed = config.desktop?.widgets ?? []
        guard listed.isEmpty else { return listed }
        return scheduler.instances.values.filter { $0.spec.outputs.contains(where: \.isPicture) }.map(\.id).sorted()
    }

    /// The `desktop` section as the surface lays it out.
    func desktopLayout() -> DesktopViewMessage.Layout {
        let d = config.desktop ?? DesktopConfig()
        // Light is the default scheme, so only a dark one is "set": otherwise (and with "system") the surface follows the desktop.
        return DesktopViewMessage.Layout(widgets: desktopWidgetIDs(), anchor: d.anchor.rawValue, margin: d.margin, gap: d.gap,
                                         columns: d.columns, scale: d.scale,
                                         dark: config.defaults.picture.colorScheme == .dark ? true : nil,
                                         // Only what differs from the default, so a surface of before reads the same stream.
                                         output: d.output == OutputSelector.primary ? nil : d.output,
                                         outputs: d.outputs.isEmpty ? nil : d.outputs)
    }

    /// `inst` as the stream describes it, with `entry` on screen (nil: the one shown now). Stale
    /// when its last reload failed (a picture that is behind is not: the surface draws the tree).
    func desktopWidget(_ inst: WidgetInstance, entry: WireEntry? = nil) -> DesktopViewMessage.Widget {
        let shown = entry ?? inst.currentEntry
        return DesktopViewMessage.Widget(id: inst.id, kind: inst.spec.kind, family: inst.spec.family, view: shown?.view,
                                         entryDate: shown?.date, stale: inst.lastError != nil, running: isRunning(inst.spec))
    }

    /// Whether the bundle of `spec` is loaded, not quarantined, and has its worker (running, or
    /// resting until its next call: `LoadedBundle.isAsleep`).
    func isRunning(_ spec: InstanceSpec) -> Bool {
        guard let bundle = registry.bundles[spec.bundleName] else { return false }
        return bundle.isServing && supervisor.quarantineReason(bundle) == nil
    }

    /// The desktop surface says its colour scheme (on its `watch`): the widgets whose
    /// `picture.colorScheme` is `"system"` are asked for a timeline in it and drawn in it when it
    /// changed (their text outputs follow: one timeline).
    public func desktopColorSchemeReported(_ scheme: ColorScheme) {
        guard scheme != desktopColorScheme else { return }
        logger.info("desktop: colour scheme \(scheme.rawValue)")
        desktopColorScheme = scheme
        replan(changedBundles: [], removedReason: "widget removed")
    }

    /// Publishes the desktop's current state: the changes since the last, or everything after a
    /// new configuration (`desktopSnapshotDue`) or a new layout.
    func refreshDesktopView() {
        let layout = desktopLayout()
        let widgets = layout.widgets.compactMap { scheduler.instances[$0] }.map { desktopWidget($0) }
        desktopView.publish(layout: layout, widgets: widgets, snapshot: desktopSnapshotDue)
        desktopSnapshotDue = false
    }
}
