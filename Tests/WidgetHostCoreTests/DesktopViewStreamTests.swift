import FoundationEssentials
import Logging
import OpenWidgetKit
import Testing
@testable import WidgetHostCore

/// The desktop view stream's flow control (issue 26): a subscriber that does not read never
/// blocks the host or grows its memory — what changes meanwhile is coalesced to the latest state
/// per widget, and one held back past the cap is dropped. On virtual time.
@Suite struct DesktopViewStreamTests {
    typealias Widget = DesktopViewMessage.Widget

    static func widget(_ id: String, _ text: String, stale: Bool = false) -> Widget {
        var view = ViewNode(kind: .text)
        view.text = text
        return Widget(id: id, kind: "k", family: .systemSmall, view: view, entryDate: nil, stale: stale, running: true)
    }

    static let layout = DesktopViewMessage.Layout(widgets: ["a", "b"], anchor: "top-right", margin: 32, gap: 22, columns: 2, scale: 1, dark: nil)

    /// A transport whose kernel buffer is full while `full` is set.
    final class FakeTransport: DesktopViewTransport {
        var full = false
        var lines: [[UInt8]] = []
        var closed: String?
        var unwrittenBytes: Int { full ? 1 : 0 }
        func write(_ line: [UInt8]) { lines.append(line) }
        func close(reason: String) { closed = reason }
        var messages: [DesktopViewMessage] {
            var decoder = DesktopViewStreamDecoder()
            return (try? decoder.feed(lines.joined())) ?? []
        }
    }

    @Test func aHeldBackSubscriberIsOwedOnlyTheLatestStateOfEachWidget() {
        var backlog = DesktopViewBacklog(stallSeconds: 30)
        #expect(backlog.next(unwrittenBytes: 0, now: 0) == .idle)
        for i in 0..<100 {
            backlog.add(DesktopViewMessage(snapshot: false, layout: nil, widgets: [Self.widget("a", "a\(i)")], removed: []))
            #expect(backlog.next(unwrittenBytes: 10, now: Double(i) * 0.1) == .hold(deadline: 30))
        }
        backlog.add(DesktopViewMessage(snapshot: false, layout: nil, widgets: [Self.widget("b", "b0")], removed: []))
        backlog.add(DesktopViewMessage(snapshot: false, layout: nil, widgets: [], removed: ["c"]))
        #expect(backlog.next(unwrittenBytes: 0, now: 12) == .send(DesktopViewMessage(
            snapshot: false, layout: nil, widgets: [Self.widget("a", "a99"), Self.widget("b", "b0")], removed: ["c"])))
        #expect(backlog.isEmpty && backlog.heldSince == nil)
        #expect(backlog.next(unwrittenBytes: 0, now: 13) == .idle)
    }

    @Test func aSnapshotOwedAbsorbsTheChangesAndRemovalsAfterIt() {
        var backlog = DesktopViewBacklog()
        backlog.add(DesktopViewMessage(snapshot: false, layout: nil, widgets: [Self.widget("x", "old")], removed: []))
        var layout = Self.layout
        layout.widgets = ["c", "b", "a"]
        backlog.add(DesktopViewMessage(snapshot: true, layout: layout, widgets: [Self.widget("a", "1"), Self.widget("b", "1")], removed: []))
        backlog.add(DesktopViewMessage(snapshot: false, layout: nil, widgets: [Self.widget("a", "2"), Self.widget("c", "1")], removed: ["b"]))
        #expect(backlog.next(unwrittenBytes: 0, now: 0) == .send(DesktopViewMessage(
            snapshot: true, layout: layout, widgets: [Self.widget("c", "1"), Self.widget("a", "2")], removed: [])), "in grid order")
    }

    @Test func aSubscriberThatTakesNoBytesForTheStallTimeIsDropped() {
        var backlog = DesktopViewBacklog(stallSeconds: 30)
        backlog.add(DesktopViewMessage(snapshot: false, layout: nil, widgets: [Self.widget("a", "1")], removed: []))
        #expect(backlog.next(unwrittenBytes: 5, now: 100) == .hold(deadline: 130))
        #expect(backlog.next(unwrittenBytes: 5, now: 129.9) == .hold(deadline: 130))
        guard case .drop = backlog.next(unwrittenBytes: 5, now: 130) else { Issue.record("not dropped at the cap"); return }
        // One that drains in time is not: the clock starts again at the next hold.
        var reader = DesktopViewBacklog(stallSeconds: 30)
        reader.add(DesktopViewMessage(snapshot: false, layout: nil, widgets: [Self.widget("a", "1")], removed: []))
        _ = reader.next(unwrittenBytes: 5, now: 100)
        guard case .send = reader.next(unwrittenBytes: 0, now: 120) else { Issue.record("not sent once drained"); return }
        reader.add(DesktopViewMessage(snapshot: false, layout: nil, widgets: [Self.widget("a", "2")], removed: []))
        #expect(reader.next(unwrittenBytes: 5, now: 140) == .hold(deadline: 170))
    }

    @Test func theStreamCoalescesForAFullSubscriberServesTheOthersAndDropsItAtTheCap() {
        let loop = VirtualLoop()
        let stream = DesktopViewStream(loop: loop, maxSubscribers: 8, stallSeconds: 30, monotonic: { loop.monotonic }, logger: Logger(label: "t"))
        stream.publish(layout: Self.layout, widgets: [Self.widget("a", "0"), Self.widget("b", "0")], snapshot: true)
        let slow = FakeTransport(), fast = FakeTransport()
        #expect(stream.subscribe(id: 1, slow) == nil)
        #expect(stream.subscribe(id: 2, fast) == nil)
        #expect(slow.messages.map(\.snapshot) == [true] && fast.messages.map(\.snapshot) == [true])
        slow.full = true
        for i in 1...20 {
            loop.advance(by: 1)
            stream.update(Self.widget("a", "\(i)"))
        }
        stream.update(Self.widget("a", "20"))                      // no change: nothing is written
        stream.update(Self.widget("zz", "not on the desktop"))
        #expect(fast.messages.count == 21, "the reader gets every change")
        #expect(fast.messages.last?.widgets == [Self.widget("a", "20")])
        #expect(slow.lines.count == 1, "nothing is written to a full connection")
        slow.full = false
        stream.drained(1)
        #expect(slow.messages.count == 2)
        #expect(slow.messages.last == DesktopViewMessage(snapshot: false, layout: nil, widgets: [Self.widget("a", "20")], removed: []))
        // Full again, and never read: dropped by the timer at the cap, with no further change.
        slow.full = true
        loop.advance(by: 1)
        stream.update(Self.widget("b", "1"))
        loop.advance(by: 29.9)
        #expect(slow.closed == nil)
        loop.advance(by: 0.2)
        #expect(slow.closed != nil && stream.subscriberCount == 1)
        #expect(fast.closed == nil)
    }

    @Test func aNinthSubscriberIsRefusedWithAReason() {
        let loop = VirtualLoop()
        let stream = DesktopViewStream(loop: loop, monotonic: { loop.monotonic }, logger: Logger(label: "t"))
        let transports = (0..<9).map { _ in FakeTransport() }
        for i in 0..<8 { #expect(stream.subscribe(id: i, transports[i]) == nil) }
        let refusal = stream.subscribe(id: 8, transports[8])
        #expect(refusal?.contains("8 view stream subscribers") == true, "\(refusal ?? "accepted")")
        #expect(transports[8].lines.isEmpty)
        stream.unsubscribe(0)
        #expect(stream.subscribe(id: 9, FakeTransport()) == nil)
    }

    @Test func publishSendsOnlyTheDifferenceOrASnapshotWhenTheLayoutChanged() {
        let loop = VirtualLoop()
        let stream = DesktopViewStream(loop: loop, monotonic: { loop.monotonic }, logger: Logger(label: "t"))
        stream.publish(layout: Self.layout, widgets: [Self.widget("a", "0"), Self.widget("b", "0")], snapshot: false)
        let t = FakeTransport()
        _ = stream.subscribe(id: 1, t)
        stream.publish(layout: Self.layout, widgets: [Self.widget("a", "0"), Self.widget("b", "0")], snapshot: false)
        #expect(t.messages.count == 1, "nothing changed, nothing written")
        stream.publish(layout: Self.layout, widgets: [Self.widget("a", "0", stale: true)], snapshot: false)
        #expect(t.messages.last == DesktopViewMessage(snapshot: false, layout: nil, widgets: [Self.widget("a", "0", stale: true)], removed: ["b"]))
        var other = Self.layout
        other.columns = 4
        stream.publish(layout: other, widgets: [Self.widget("a", "0", stale: true)], snapshot: false)
        #expect(t.messages.last == DesktopViewMessage(snapshot: true, layout: other, widgets: [Self.widget("a", "0", stale: true)], removed: []))
    }

    @Test func theDecoderReassemblesLinesAndNamesARefusal() throws {
        let message = DesktopViewMessage(snapshot: true, layout: Self.layout, widgets: [Self.widget("a", "é ✓")], removed: [])
        let line = try #require(DesktopViewStream.encode(message))
        var decoder = DesktopViewStreamDecoder()
        var got: [DesktopViewMessage] = []
        for byte in line + line { got += try decoder.feed([byte]) }  // one byte at a time
        #expect(got == [message, message])
        var refused = DesktopViewStreamDecoder()
        #expect(throws: DesktopViewStreamDecoder.Refused.self) {
            _ = try refused.feed(ControlCodec.encode(ControlResponse.failure("refused: too many")))
        }
        var garbage = DesktopViewStreamDecoder()
        #expect(throws: DesktopViewStreamDecoder.Malformed.self) { _ = try garbage.feed(Array("{\"x\":1}\n".utf8)) }
    }
}
