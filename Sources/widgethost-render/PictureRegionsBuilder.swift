import OpenWidgetKit
import WidgetHostCore
import WidgetLayout

/// The `regions.json` of a picture (`PictureRegions`): the `widgetURL` area (the whole widget,
/// as on iOS) first, then every `Button(intent:)`, `Toggle(isOn:intent:)` and `Link` in tree
/// order, each as the pixel rectangle of its laid-out frame (outward to whole pixels, clipped to
/// the picture). Pure.
enum PictureRegionsBuilder {
    static func regions(root: ViewNode, placed: PlacedNode, family: WidgetFamily, scale: Double) -> PictureRegions {
        let size = family.nominalSize
        let width = (size.width * scale).rounded(), height = (size.height * scale).rounded()
        var list: [PictureRegions.Region] = []
        var widgetURL: String?
        root.walk { if widgetURL == nil { widgetURL = $0.mods.widgetURL } }
        if let widgetURL {
            list.append(PictureRegions.Region(kind: "widgetURL", x: 0, y: 0, width: width, height: height, url: widgetURL))
        }
        let titles = Dictionary(InteractionTargets.controls(in: root).map { ($0.id, $0.title) }, uniquingKeysWith: { a, _ in a })
        placed.walk { p in
            let n = p.node
            let kind: String
            switch n.kind {
            case .button: kind = "button"
            case .toggle: kind = "toggle"
            case .link: kind = "link"
            default: return
            }
            if kind != "link" && n.action == nil { return }
            if kind == "link" && n.url == nil { return }
            // A non-finite frame would clamp to the whole picture (max(0, .nan) is 0): no region.
            guard [p.frame.x, p.frame.y, p.frame.width, p.frame.height].allSatisfy(\.isFinite) else { return }
            let x0 = max(0, (p.frame.x * scale).rounded(.down)), y0 = max(0, (p.frame.y * scale).rounded(.down))
            let x1 = min(width, ((p.frame.x + p.frame.width) * scale).rounded(.up))
            let y1 = min(height, ((p.frame.y + p.frame.height) * scale).rounded(.up))
            guard x1 > x0, y1 > y0, x0.isFinite, y0.isFinite else { return }
            let target = n.action?.id
            list.append(PictureRegions.Region(kind: kind, x: x0, y: y0, width: x1 - x0, height: y1 - y0, target: target,
                                              title: target.flatMap { titles[$0] ?? nil }, url: kind == "link" ? n.url : nil))
        }
        return PictureRegions(width: width, height: height, scale: scale, regions: list)
    }
}
