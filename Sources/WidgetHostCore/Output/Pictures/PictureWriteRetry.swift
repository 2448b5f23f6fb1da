/// The pictures whose files could not be written (the disk or a small tmpfs full, `out/`
/// unwritable for a while), drawn again with exponential backoff until they land — the rule
/// `FileOutputSink` keeps for the text: `baseSeconds`, doubling per failed round up to
/// `maxSeconds`. Without it a picture whose write hit ENOSPC kept its old file until the
/// widget's entry next changed, while the text beside it was rewritten (issue 23). A widget
/// that lands, or goes, leaves the set. Threading: loop thread only.
final class PictureWriteRetry {
    private let loop: any HostLoop
    private let redraw: (_ ids: [String]) -> Void
    private var timer: (any HostTimer)?
    /// Widgets whose last picture was drawn but not written.
    private(set) var pending: Set<String> = []
    private var roundsFailed = 0
    var baseSeconds = 1.0
    var maxSeconds = 60.0

    /// `redraw` is called with the pending widgets (sorted) when the backoff has passed.
    init(loop: any HostLoop, redraw: @escaping (_ ids: [String]) -> Void) {
        self.loop = loop; self.redraw = redraw
    }

    /// The picture of `id` was drawn but a file could not be written.
    func failed(_ id: String) {
        pending.insert(id)
        if timer == nil { timer = loop.makeTimer { [weak self] in self?.fire() } }
        guard timer?.isScheduled != true else { return }
        timer?.schedule(after: min(maxSeconds, baseSeconds * Double(1 << min(roundsFailed, 20))))
        roundsFailed += 1
    }

    /// The picture of `id` was written, or `id` has no picture any more.
    func landed(_ id: String) {
        guard pending.remove(id) != nil, pending.isEmpty else { return }
        roundsFailed = 0
        timer?.cancel()
    }

    func close() { timer?.close(); timer = nil; pending = [] }

    /// Each pending widget stays pending until its redraw lands (`landed`) or fails again
    /// (`failed`, which arms the next, longer wait).
    private func fire() { redraw(pending.sorted()) }
}
