import FoundationEssentials
import Logging
import OpenWidgetKit
import WidgetRendering

/// The `png` / `svg` outputs (DESIGN §11): the entry on screen of every widget that has one is
/// drawn by the render process into `out/<id>.png` / `out/<id>.svg`, with
/// `out/<id>.regions.json` beside it.
///
/// - The render process is started on first need (`PictureRenderLauncher`): a host whose widgets
///   have text outputs only never starts it, so never loads Cairo.
/// - One picture is drawn at a time; each widget has at most one waiting, the newest (a widget
///   whose pictures come faster than they are drawn skips the stale ones). The loop never waits
///   for a picture: text outputs are published before and apart from it.
/// - Widgets share the render process fairly (`PictureFairShare`): each has a render-time budget
///   (`picture.budgetSeconds`) that sets its pictures' deadlines and how often it is drawn, a
///   widget whose pictures fail waits longer after each failure, and widgets in good standing go
///   first, in the order they asked. A picture over the widget's size budget
///   (`picture.maxFileKB`) is not written and counts as a failure.
/// - A picture that misses its deadline gets the process killed; a crash or kill costs that one
///   picture, and the next one starts a new process (at once after one failure, then with a
///   backoff doubling from 0.5 s to 30 s). A tree that failed twice in a row is not drawn again
///   until the widget's entry changes.
/// - While a widget's pictures fail, `onProblem` says why (its `.json` shows it stale with the
///   reason); the next picture drawn clears it.
/// - A picture drawn but not written (disk full, `out/` unwritable) is drawn again with a
///   backoff from 1 s doubling to 60 s until it lands (`PictureWriteRetry`), as the text is.
/// - An entry with no live date is drawn once: showing it again (a stale mark, the same timeline
///   again) sends nothing. With a live date (`.timer`, `.relative`, `ProgressView(timerInterval:)`)
///   each tick the scheduler makes is drawn; the render process writes a file only when its
///   bytes changed, and `onChanged` runs only then (the bar signal).
///
/// Threading: loop thread only.
public final class PictureOutputs {
    private struct Job {
        var spec: InstanceSpec
        var view: ViewNode
        var now: Date
        var live: Bool
    }

    /// What a drawing depends on besides the date: equal keys and no live date draw equal pictures.
    private struct DrawnKey: Equatable {
        var view: ViewNode
        var family: WidgetFamily
        var settings: PictureSettings
        var request: PictureRenderRequest
    }

    private let loop: any HostLoop
    private let launcher: any PictureRenderLauncher
    private let logger: Logger
    public private(set) var config: HostConfig
    private var connection: (any PictureRenderConnection)?
    /// The out folder the running render process may write.
    private var connectionOut: String?
    private var queue: [String] = []
    private var waiting: [String: Job] = [:]
    private var inFlight: (id: String, key: DrawnKey, live: Bool, sentAt: Double, deadline: Double)?
    private var fairShare = PictureFairShare()
    /// Wakes the queue when a widget's budget or backoff lets its waiting picture go.
    private var turnTimer: (any HostTimer)?
    /// Why each widget's pictures are failing, as last reported through `onProblem`.
    private var problems: [String: String] = [:]
    /// `onProblem` calls held until a reply is handled (they reach the scheduler, which may show
    /// the widget again and so call back in).
    private var notices: [(String, String?)] = []
    /// The last job shown per widget, to draw again when its picture settings change.
    private var shown: [String: Job] = [:]
    private var drawn: [String: DrawnKey] = [:]
    private var encodedViews: [String: (view: ViewNode, bytes: Data)] = [:]
    /// Files written per widget (removed when the widget or its picture output goes).
    private var files: [String: Set<String>] = [:]
    private var failedTree: [String: ViewNode] = [:]
    private var skippedTree: [String: ViewNode] = [:]
    private var failingIDs: Set<String> = []
    private var failuresInARow = 0
    private var restartTimer: (any HostTimer)?
    private var closed = false
    /// Pictures drawn but not written, drawn again with backoff until they land.
    private lazy var writeRetry = PictureWriteRetry(loop: loop) { [weak self] ids in self?.redraw(ids) }

    /// Called when a picture file of `id` was replaced (its bytes changed), with its settings.
    public var onChanged: (_ id: String, _ settings: PictureSettings) -> Void = { _, _ in }
    /// Called when the pictures of `id` start failing (with the reason and when the next try is)
    /// or stop (nil): the widget's text outputs show it stale with the reason meanwhile.
    public var onProblem: (_ id: String, _ reason: String?) -> Void = { _, _ in }
    /// Render processes started, pictures requested, requests that failed (for tests and status).
    public private(set) var launchCount = 0
    public private(set) var requestCount = 0
    public private(set) var failureCount = 0
    /// Why the last picture that failed did (for `status`).
    public private(set) var lastFailure: String?

    public init(config: HostConfig, loop: any HostLoop, launcher: any PictureRenderLauncher, logger: Logger) {
        self.config = config; self.loop = loop; self.launcher = launcher; self.logger = logger
    }

    /// Whether the render process is running.
    public var isRunning: Bool { connection != nil }

    /// The entry `view` of `spec` is on screen at `now`; `live`: it holds a live date, so the
    /// same tree draws differently at another date.
    public func show(_ spec: InstanceSpec, view: ViewNode, now: Date, live: Bool) {
        guard !closed else { return }
        let wants = spec.outputs.contains(where: \.isPicture)
        guard wants else {
            if shown[spec.id] != nil || files[spec.id] != nil { remove(spec.id) }
            return
        }
        if let bad = failedTree[spec.id], bad != view { failedTree[spec.id] = nil; skippedTree[spec.id] = nil }
        let job = Job(spec: spec, view: view, now: now, live: live)
        shown[spec.id] = job
        enqueue(job)
    }

    /// `id` is gone: its waiting picture is dropped and its files removed.
    public func remove(_ id: String) {
        shown[id] = nil; drawn[id] = nil; encodedViews[id] = nil; failedTree[id] = nil; skippedTree[id] = nil
        fairShare.remove(id)
        if problems.removeValue(forKey: id) != nil { onProblem(id, nil) }  // no picture, nothing behind
        writeRetry.landed(id)
        if waiting.removeValue(forKey: id) != nil { queue.removeAll { $0 == id } }
        // Nothing known (files a previous run wrote): the names the current config gives them.
        let base = config.paths.out + "/" + id
        deleteFiles(of: id, keeping: [], also: files[id] == nil ? [base + ".png", base + ".svg", base + ".regions.json"] : [])
    }

    /// A new configuration: widgets whose picture settings or output folder changed are drawn again.
    public func apply(_ new: HostConfig) {
        let old = config
        config = new
        for (id, job) in shown.sorted(by: { $0.key < $1.key })
        where new.pictureSettings(for: id) != old.pictureSettings(for: id) || new.paths.out != old.paths.out {
            drawn[id] = nil
            var j = job
            j.now = loop.now
            enqueue(j)
        }
    }

    /// Stops the render process (the picture being drawn is abandoned). Files stay.
    public func close() {
        closed = true
        restartTimer?.close(); restartTimer = nil
        turnTimer?.close(); turnTimer = nil
        writeRetry.close()
        inFlight = nil  // stopping fails it: not a render failure, nothing to log or restart
        connection?.stop(); connection = nil
        queue = []; waiting = [:]
    }

    // MARK: - Drawing

    private func paths(_ spec: InstanceSpec) -> (png: String?, svg: String?, regions: String) {
        let base = config.paths.out + "/" + spec.id
        return (spec.outputs.contains(.png) ? base + ".png" : nil, spec.outputs.contains(.svg) ? base + ".svg" : nil,
                base + ".regions.json")
    }

    private func key(_ job: Job) -> DrawnKey {
        let settings = config.pictureSettings(for: job.spec.id)
        let p = paths(job.spec)
        // "system": the scheme the instance was evaluated in (the desktop's, `WidgetInstancePlanner`).
        let dark = settings.followsDesktop ? job.spec.colorScheme == .dark : settings.colorScheme == .dark
        let request = PictureRenderRequest(id: job.spec.id, family: job.spec.family, now: job.now, scale: settings.scale,
                                           dark: dark, png: p.png, svg: p.svg, regions: p.regions,
                                           maxBytes: settings.maxFileKB * 1024, tint: settings.pictureTint)
        return DrawnKey(view: job.view, family: job.spec.family, settings: settings, request: request)
    }

    private func enqueue(_ job: Job) {
        let id = job.spec.id
        // Nothing else of this widget waiting or being drawn: a later picture could replace the
        // one these shortcuts compare with (A drawn, B queued, back to A must draw A again).
        let nothingPending = waiting[id] == nil && inFlight?.id != id
        if nothingPending, skippedTree[id] == job.view { return }
        if nothingPending, !job.live, var k = drawn[id] {
            // Same tree, settings and files as the picture drawn last: nothing would change.
            k.request.now = job.now
            if k == key(job) { return }
        }
        if waiting[id] == nil { queue.append(id) }
        waiting[id] = job
        pump()
    }

    /// Seconds on the clock `PictureFairShare` counts with.
    private var clock: Double { loop.now.timeIntervalSince1970 }

    private func budget(_ id: String) -> PictureFairShare.Budget { config.pictureSettings(for: id).budget }

    private func pump() {
        guard !closed, inFlight == nil, !queue.isEmpty else { return }
        let now = clock
        let turn = fairShare.next(queue, budget: budget, now: now)
        guard let id = turn.id else {
            // Every waiting widget is out of budget or backing off: wake when the first may go.
            if let at = turn.wakeAt {
                if turnTimer == nil { turnTimer = loop.makeTimer { [weak self] in self?.pump() } }
                turnTimer?.schedule(after: max(0, at - now))
            }
            return
        }
        if let c = connection, connectionOut != config.paths.out {
            // Its sandbox lets it write the folder it was started for only: start a new one.
            connection = nil
            c.stop()
        }
        if connection == nil {
            guard restartTimer?.isScheduled != true else { return }
            let limits = PictureRenderLimits(outDirectory: config.paths.out)
            switch launcher.launch(limits, onExit: { [weak self] failure in self?.processExited(failure) }) {
            case .success(let c):
                connection = c
                connectionOut = limits.outDirectory
                launchCount += 1
                logger.info(launchCount == 1 ? "render process started (first picture output)" : "render process restarted")
            case .failure(let f):
                failuresInARow += 1
                logger.error("cannot start the render process: \(f.description); pictures wait (retry in \(Self.backoff(failuresInARow)) s)")
                scheduleRestart()
                return
            }
        }
        queue.removeAll { $0 == id }
        guard let job = waiting.removeValue(forKey: id), let connection else { return }
        let k = key(job)
        let viewBytes: Data
        if let cached = encodedViews[id], cached.view == job.view { viewBytes = cached.bytes } else {
            var w = WireJSONWriter(capacity: 4096)  // WireCodec's JSON, without JSONEncoder's cost
            w.value(job.view)
            viewBytes = w.data
            encodedViews[id] = (job.view, viewBytes)
        }
        let payload = PictureRenderFrame.payload(k.request, view: viewBytes)
        let deadline = fairShare.deadline(id, budget: k.settings.budget, timeout: k.settings.timeoutSeconds, now: now)
        inFlight = (id, k, job.live, now, deadline)
        requestCount += 1
        connection.send(payload, timeout: deadline) { [weak self] result in self?.finished(result) }
    }

    private func finished(_ result: Result<PictureRenderReply, WorkerFailure>) {
        guard !closed, let (id, k, live, sentAt, deadline) = inFlight else { return }
        inFlight = nil
        let current = shown[id] != nil
        let now = clock
        // Killed at its deadline or not, a picture costs its widget at most the deadline.
        fairShare.charge(id, seconds: min(deadline, now - sentAt), budget: k.settings.budget, now: now)
        switch result {
        case .success(let reply):
            failuresInARow = 0
            if reply.ok {
                fairShare.succeeded(id)
                if problems.removeValue(forKey: id) != nil { notices.append((id, nil)) }
                failedTree[id] = nil  // "failed twice in a row": a success in between starts over
                writeRetry.landed(id)
                if failingIDs.remove(id) != nil { logger.info("picture of \(id) drawn again") }
                if !current {
                    deleteFiles(of: id, keeping: [], also: [k.request.png, k.request.svg, k.request.regions].compactMap { $0 })
                    break
                }
                if !live { drawn[id] = k }
                logger.debug("picture of \(id) drawn in \(Int(saturating: (reply.milliseconds ?? 0) * 1000)) µs: \(reply.written.isEmpty ? "unchanged" : "replaced " + reply.written.map(\.lastPathComponent).joined(separator: ", "))")
                let now = Set([k.request.png, k.request.svg, k.request.regions].compactMap { $0 })
                deleteFiles(of: id, keeping: now)
                files[id] = now
                if reply.written.contains(where: { $0 != k.request.regions }) { onChanged(id, k.settings) }
            } else {
                failureCount += 1
                lastFailure = "\(id): \(reply.error ?? "no reason given")"
                if reply.writeFailed == true {
                    drawn[id] = nil  // drawn but not written: the same picture is written again later
                    writeRetry.failed(id)
                } else if !live { drawn[id] = k }  // the same tree would fail the same way
                logger.log(level: failingIDs.insert(id).inserted ? .warning : .debug,
                           "picture of \(id) could not be drawn: \(reply.error ?? "no reason given")")
                pictureFailed(id, reply.error ?? "no reason given", budget: k.settings.budget, now: now)
            }
        case .failure(let f):
            failureCount += 1
            lastFailure = "\(id): \(f.description)"
            failuresInARow += 1
            connection?.stop(); connection = nil
            if failedTree[id] == k.view {
                skippedTree[id] = k.view
                logger.error("render process failed twice on the picture of \(id) (\(f.description)): its pictures wait for its next entry")
            } else {
                logger.error("render process failed while drawing \(id): \(f.description); that picture is lost, the next one starts a new render process")
            }
            failedTree[id] = k.view
            if failuresInARow > 1 { scheduleRestart() }
            pictureFailed(id, f.description, budget: k.settings.budget, now: now)
        }
        pump()
        let told = notices
        notices = []
        for (id, reason) in told { onProblem(id, reason) }
    }

    /// Backs `id` off and says why its picture is behind (when it is still shown).
    private func pictureFailed(_ id: String, _ reason: String, budget: PictureFairShare.Budget, now: Double) {
        let wait = fairShare.failed(id, budget: budget, now: now)
        guard shown[id] != nil else { return }
        let n = fairShare.failures(of: id)
        let problem = "picture not drawn: \(reason) (\(n) failure\(n == 1 ? "" : "s") in a row; next try in \(Int(wait.rounded(.up))) s or later)"
        problems[id] = problem
        notices.append((id, problem))
    }

    private func processExited(_ failure: WorkerFailure) {
        // A failure while drawing is handled with its request; an exit while idle just ends it.
        guard inFlight == nil else { return }
        logger.warning("render process ended: \(failure.description); the next picture starts a new one")
        connection = nil
    }

    /// The widgets whose pictures were drawn but not written: their current job, drawn again.
    private func redraw(_ ids: [String]) {
        for id in ids {
            guard var job = shown[id] else { writeRetry.landed(id); continue }
            job.now = loop.now
            enqueue(job)
        }
    }

    static func backoff(_ failures: Int) -> Double { failures <= 1 ? 0 : min(30, 0.5 * Double(1 << min(failures - 2, 10))) }

    private func scheduleRestart() {
        if restartTimer == nil { restartTimer = loop.makeTimer { [weak self] in self?.pump() } }
        restartTimer?.schedule(after: Self.backoff(failuresInARow))
    }

    /// Unlinks the files of `id` written before (and `also`) that are not in `keeping`.
    private func deleteFiles(of id: String, keeping: Set<String>, also: [String] = []) {
        for path in (files[id] ?? []).union(also).subtracting(keeping) { FileIO.remove(path) }
        files[id] = keeping.isEmpty ? nil : keeping
    }
}
