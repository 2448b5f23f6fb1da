import FoundationEssentials
import OpenWidgetKit

/// The subscriber's side of the desktop view stream: bytes read from the control socket after
/// `{"op":"watch"}` in, `DesktopViewMessage`s out (one `WireCodec` JSON object per line, split
/// by `LineSplitter`). A line the host writes instead of the stream — `{"ok":false,"error":…}`,
/// e.g. when it already serves as many subscribers as it will — is thrown as `Refused`.
///
/// Value type; one per connection, any thread (the caller's).
public struct DesktopViewStreamDecoder: Sendable {
    /// The host refused the subscription (the connection ends after this line).
    public struct Refused: Error, CustomStringConvertible {
        public let description: String
    }

    /// A line that is neither a message nor a refusal.
    public struct Malformed: Error, CustomStringConvertible {
        public let description: String
    }

    private var splitter: LineSplitter

    /// - Parameter maxLine: the longest line accepted (a snapshot of many large trees is long).
    public init(maxLine: Int = 64 << 20) { splitter = LineSplitter(maxLine: maxLine) }

    /// Appends `chunk` and returns the messages of the lines it completed, in order.
    public mutating func feed(_ chunk: some Collection<UInt8>) throws -> [DesktopViewMessage] {
        let lines: [[UInt8]]
        do { lines = try splitter.feed(chunk) } catch {
            throw Malformed(description: "a view stream line is longer than \(splitter.maxLine) bytes")
        }
        return try lines.filter { !$0.isEmpty }.map(Self.decode)
    }

    static func decode(_ line: [UInt8]) throws -> DesktopViewMessage {
        if let m = DesktopViewMessageJSON.message(line) { return m }
        let data = Data(line)
        do { return try WireCodec.decode(DesktopViewMessage.self, from: data) } catch {
            if let answer = try? ControlCodec.decode(ControlResponse.self, line: line), !answer.ok {
                throw Refused(description: answer.error ?? "the host refused the view stream")
            }
            throw Malformed(description: "not a view stream message: \(error)")
        }
    }
}
