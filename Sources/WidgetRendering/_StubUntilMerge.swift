import FoundationEssentials
import OpenWidgetKit
// TEMPORARY: replaced by the render branch at merge.
public struct RenderOptions: Sendable {
    public enum Glyphs: Sendable { case unicode, nerdFont }
    public var glyphs: Glyphs = .unicode
    public var now: Date = Date()
    public init(glyphs: Glyphs = .unicode, now: Date = Date()) { self.glyphs = glyphs; self.now = now }
}
public enum TextRenderer {
    public static func render(_ node: ViewNode, family: WidgetFamily, options: RenderOptions) -> String {
        var parts: [String] = []
        node.walk { if let t = $0.text { parts.append(t) } }
        return parts.joined(separator: " ")
    }
}
public enum PangoRenderer {
    public static func render(_ node: ViewNode, family: WidgetFamily, options: RenderOptions) -> String { TextRenderer.render(node, family: family, options: options) }
}
public struct WaybarOutput: Codable, Sendable { public var text: String; public var alt: String?; public var tooltip: String?; public var `class`: [String]; public var percentage: Int? }
public enum WaybarRenderer {
    public static func render(_ node: ViewNode, family: WidgetFamily, options: RenderOptions) -> WaybarOutput {
        WaybarOutput(text: TextRenderer.render(node, family: family, options: options), alt: nil, tooltip: nil, class: [], percentage: nil)
    }
}
public func displayWidth(of s: String) -> Int { s.count }
