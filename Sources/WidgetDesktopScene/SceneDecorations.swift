import CCairo
import WidgetGraphics
import WidgetLayout

/// Draws what the scene adds over the widgets: the context menu, the stale / not-running mark,
/// edit mode's remove badges and drop slot, the keyboard focus ring. Positions come in the
/// area's logical points and are drawn at `scale` pixels per point; what to draw and where is
/// decided elsewhere (`ContextMenu`, `WidgetMark`, `SceneInteraction`). Threading: the scene's.
struct SceneDecorations {
    let cr: OpaquePointer
    let text: PangoText
    let scale: Double
    let dark: Bool

    static let menuFont = ResolvedFont(size: 13)
    static let accent = (r: 0.0, g: 0.48, b: 1.0)

    private func inPoints(_ body: () -> Void) {
        cairo_save(cr)
        cairo_scale(cr, scale, scale)
        body()
        cairo_restore(cr)
    }

    private func roundedRect(_ x: Double, _ y: Double, _ w: Double, _ h: Double, _ radius: Double) {
        let r = max(0, min(radius, w / 2, h / 2))
        cairo_new_sub_path(cr)
        cairo_arc(cr, x + w - r, y + r, r, -.pi / 2, 0)
        cairo_arc(cr, x + w - r, y + h - r, r, 0, .pi / 2)
        cairo_arc(cr, x + r, y + h - r, r, .pi / 2, .pi)
        cairo_arc(cr, x + r, y + r, r, .pi, 1.5 * .pi)
        cairo_close_path(cr)
    }

    /// The mark's pill: dark, white bold text.
    func mark(_ label: String, at r: Rect) {
        inPoints {
            roundedRect(r.x, r.y, r.width, r.height, r.height / 2)
            cairo_set_source_rgba(cr, 0.1, 0.1, 0.1, 0.85)
            cairo_fill(cr)
            cairo_set_source_rgba(cr, 1, 1, 1, 1)
            let m = text.measure(label, font: WidgetMark.font, width: nil, maxLines: 1)
            text.draw(label, font: WidgetMark.font, width: r.width - 2 * WidgetMark.padding, on: cr,
                      x: r.x + WidgetMark.padding, y: r.y + (r.height - m.height) / 2)
        }
    }

    /// The context menu: a rounded panel, one row per command, the highlighted row in the accent colour.
    func menu(_ m: ContextMenu) {
        inPoints {
            let f = m.frame
            roundedRect(f.x, f.y, f.width, f.height, ContextMenu.cornerRadius)
            if dark { cairo_set_source_rgba(cr, 0.17, 0.17, 0.18, 0.97) } else { cairo_set_source_rgba(cr, 0.97, 0.97, 0.97, 0.97) }
            cairo_fill_preserve(cr)
            cairo_set_line_width(cr, 1)
            cairo_set_source_rgba(cr, 0, 0, 0, dark ? 0.6 : 0.2)
            cairo_stroke(cr)
            for (i, command) in m.commands.enumerated() {
                let r = m.rowFrame(i)
                let lit = m.highlighted == i
                if lit {
                    roundedRect(r.x + 4, r.y, r.width - 8, r.height, 6)
                    cairo_set_source_rgba(cr, Self.accent.r, Self.accent.g, Self.accent.b, 1)
                    cairo_fill(cr)
                }
                if lit { cairo_set_source_rgba(cr, 1, 1, 1, 1) }
                else if command == .removeWidget { cairo_set_source_rgba(cr, 1, 0.23, 0.19, 1) }
                else if dark { cairo_set_source_rgba(cr, 1, 1, 1, 1) } else { cairo_set_source_rgba(cr, 0, 0, 0, 0.9) }
                let t = text.measure(command.rawValue, font: Self.menuFont, width: nil, maxLines: 1)
                text.draw(command.rawValue, font: Self.menuFont, width: r.width - 24, on: cr, x: r.x + 12, y: r.y + (r.height - t.height) / 2)
            }
        }
    }

    /// Edit mode's remove badge: a grey disc with a white bar.
    func removeBadge(_ r: LogicalRect) {
        inPoints {
            let cx = r.x + r.width / 2, cy = r.y + r.height / 2, radius = r.width / 2
            cairo_new_sub_path(cr)
            cairo_arc(cr, cx, cy, radius, 0, 2 * .pi)
            cairo_set_source_rgba(cr, 0.45, 0.45, 0.47, 0.95)
            cairo_fill_preserve(cr)
            cairo_set_source_rgba(cr, 1, 1, 1, 1)
            cairo_set_line_width(cr, 1.5)
            cairo_stroke(cr)
            cairo_set_line_width(cr, 2.5)
            cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
            cairo_move_to(cr, cx - radius * 0.45, cy)
            cairo_line_to(cr, cx + radius * 0.45, cy)
            cairo_stroke(cr)
        }
    }

    /// Where a dragged widget would land: a translucent rounded slot with a dashed edge.
    func dropSlot(_ r: LogicalRect) {
        inPoints {
            roundedRect(r.x, r.y, r.width, r.height, 22)
            cairo_set_source_rgba(cr, 1, 1, 1, 0.22)
            cairo_fill_preserve(cr)
            cairo_set_source_rgba(cr, Self.accent.r, Self.accent.g, Self.accent.b, 0.9)
            cairo_set_line_width(cr, 2)
            var dash = [8.0, 5.0]
            cairo_set_dash(cr, &dash, 2, 0)
            cairo_stroke(cr)
        }
    }

    /// The keyboard focus: an accent ring just inside the widget's edge.
    func focusRing(_ r: LogicalRect) {
        inPoints {
            roundedRect(r.x + 1.5, r.y + 1.5, r.width - 3, r.height - 3, 21)
            cairo_set_source_rgba(cr, Self.accent.r, Self.accent.g, Self.accent.b, 1)
            cairo_set_line_width(cr, 3)
            cairo_stroke(cr)
        }
    }
}
