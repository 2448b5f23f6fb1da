import WidgetHostCore
import WidgetHostUV

/// A control-socket connection serving the desktop view stream (`DesktopViewTransport` over
/// a `UVPipe`): its unwritten bytes are libuv's write queue; a completed write is reported to
/// `onDrained`, and a close asked by the stream goes to `onClose`, which ends the connection.
/// Loop thread only.
final class ViewStreamConnection: DesktopViewTransport {
    private weak var pipe: UVPipe?
    private let onClose: (String) -> Void

    init(pipe: UVPipe, onDrained: @escaping () -> Void, onClose: @escaping (String) -> Void) {
        self.pipe = pipe
        self.onClose = onClose
        pipe.onWriteCompleted = onDrained
    }

    var unwrittenBytes: Int { pipe?.unwrittenBytes ?? 0 }

    func write(_ line: [UInt8]) { pipe?.write(line) }

    func close(reason: String) { onClose(reason) }
}
