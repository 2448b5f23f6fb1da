/// A source of change events that can keep them back for a while without losing them: a
/// container watcher on its own inotify descriptor, whose events the kernel queues while nobody
/// reads them. `BurstThrottle` holds its source while a burst's window is open, so the rest of
/// the burst costs no wake-up, and drains it once at the window's end.
///
/// Contract: between `hold()` and `resume()` the source delivers nothing on its own; `drain()`
/// delivers everything kept so far synchronously, through the source's usual callback, and keeps
/// holding; `resume()` delivers again as events come (what came meanwhile is delivered by the
/// loop's next iteration). Events the source could not keep (an overflowing queue) are reported
/// as a change of the whole source, never dropped silently. Threading: loop thread only.
public protocol HoldableEventSource: AnyObject {
    func hold()
    func drain()
    func resume()
}
