import CGtk
import FoundationEssentials
import OpenWidgetKit
import WidgetConfigEditing
import WidgetHostCore

/// The "Add Widget" window: every installed bundle's widgets with their display names and
/// descriptions, filtered by a search entry, each as a preview tile per supported family.
/// Choosing a tile (a click, or Enter/Space on it) adds that widget in that family through
/// `ConfigEdit.add` — appended to the `widgets` list and, when the config has one, to the
/// desktop grid's `desktop.widgets` (its first free slot) — and hands the new id to `added`;
/// a refused edit is shown in the window and leaves the file as it was. A tile dragged onto
/// the desktop (`TileDragSource`) is added where it is dropped, by the desktop surface.
///
/// Keyboard: the search entry has the focus; Enter in it moves to the first tile shown; Tab
/// and the arrow keys move between tiles; Escape closes. Every tile is a button whose
/// accessible name is "<display name>, <family>" ("Daily Stats, Small").
///
/// Threading: GTK's main thread only.
final class GalleryWindow {
    let window: UnsafeMutablePointer<GtkWidget>
    private let config: HostConfig
    private let file: ConfigFileEditor
    private let added: (_ id: String, _ item: GalleryItem) -> Void
    private let search: UnsafeMutablePointer<GtkWidget>
    private let status: UnsafeMutablePointer<GtkWidget>
    private let list: UnsafeMutablePointer<GtkWidget>
    private let noMatch: UnsafeMutablePointer<GtkWidget>
    /// One per widget kind: its box, the words searched, and its tiles in order.
    private var sections: [(box: UnsafeMutablePointer<GtkWidget>, words: String, tiles: [UnsafeMutablePointer<GtkWidget>])] = []
    /// The window was closed (its widgets are gone) before the content arrived.
    private var closed = false
    /// Widest row of tiles, in points, before the next tile wraps to a new row.
    static let rowWidth = 720.0

    init(config: HostConfig, file: ConfigFileEditor, added: @escaping (_ id: String, _ item: GalleryItem) -> Void) {
        self.config = config
        self.file = file
        self.added = added
        window = gtk_window_new(GTK_WINDOW_TOPLEVEL)
        gtk_window_set_title(cast(window), "Add Widget")
        gtk_window_set_default_size(cast(window), 800, 720)
        let outer = gtk_box_new(GTK_ORIENTATION_VERTICAL, 8)!
        gtk_container_set_border_width(cast(outer), 12)
        search = gtk_search_entry_new()
        gtk_entry_set_placeholder_text(cast(search), "Search Widgets")
        setAccessible(search, name: "Search Widgets")
        status = makeLabel("Loading the installed widgets…", dim: true)
        gtk_label_set_selectable(cast(status), 1)
        gtk_widget_set_can_focus(status, 0)
        list = gtk_box_new(GTK_ORIENTATION_VERTICAL, 24)
        noMatch = makeLabel("", dim: true)
        gtk_widget_set_no_show_all(noMatch, 1)
        gtk_box_pack_start(cast(list), noMatch, 0, 0, 0)
        let scroller = gtk_scrolled_window_new(nil, nil)!
        gtk_scrolled_window_set_policy(cast(scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
        gtk_container_add(cast(scroller), list)
        gtk_box_pack_start(cast(outer), search, 0, 0, 0)
        gtk_box_pack_start(cast(outer), status, 0, 0, 0)
        gtk_box_pack_start(cast(outer), scroller, 1, 1, 0)
        gtk_container_add(cast(window), outer)
        closeOnEscape(window)
        SignalHandler.connect(search, "search-changed") { self.filter() }
        SignalHandler.connect(search, "activate") { self.focusFirstTile() }
    }

    /// Shows the window at once ("Loading the installed widgets…", the search entry usable) and
    /// fills it when the content, loaded on another thread, arrives.
    func show() {
        gtk_widget_show_all(window)
        SignalHandler.connect(window, "destroy") { self.closed = true }
        GalleryBusName.own(while: window)
        GalleryContent.load(config: config) { content in
            if !self.closed { self.fill(content) }
        }
    }

    private func fill(_ content: GalleryContent) {
        if let failure = content.failure {
            showError(failure)
            return
        }
        let items = content.items
        let pictures = PreviewPicture(scale: Int(gtk_widget_get_scale_factor(window)))
        let declaring = Dictionary(grouping: items, by: \.kind).mapValues { Set($0.map(\.bundle)).count }
        var kinds: [[GalleryItem]] = []
        for item in items {
            if let last = kinds.last?.first, last.bundle == item.bundle, last.kind == item.kind { kinds[kinds.count - 1].append(item) } else { kinds.append([item]) }
        }
        for group in kinds {
            addSection(group, trees: content.trees[group[0].bundle] ?? [:], pictures: pictures, ambiguous: (declaring[group[0].kind] ?? 0) > 1)
        }
        if items.isEmpty {
            showError("No widgets are installed in \(content.pluginFolder).")
        } else if !content.problems.isEmpty {
            showError("Some widgets cannot be shown: " + content.problems.joined(separator: "; "))
        } else {
            gtk_widget_hide(status)
        }
        filter()   // what was typed while loading
        if gtk_widget_has_focus(search) == 0 && gtk_window_get_focus(cast(window)) == nil { gtk_widget_grab_focus(search) }
    }

    private func addSection(_ items: [GalleryItem], trees: [String: ViewNode], pictures: PreviewPicture, ambiguous: Bool) {
        let first = items[0]
        let box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 4)!
        gtk_box_pack_start(cast(box), makeLabel("<b>\(markupEscaped(first.displayName))</b>", markup: true), 0, 0, 0)
        if !first.description.isEmpty { gtk_box_pack_start(cast(box), makeLabel(first.description, dim: true), 0, 0, 0) }
        var tiles: [UnsafeMutablePointer<GtkWidget>] = []
        var row: UnsafeMutablePointer<GtkWidget>?
        var rowWidth = 0.0
        for item in items {
            let tile = makeTile(item, tree: trees[PreviewTrees.key(item.kind, item.family)], pictures: pictures, ambiguous: ambiguous)
            let width = item.family.nominalSize.width + 16
            if row == nil || rowWidth + width > Self.rowWidth {
                row = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 16)
                gtk_box_pack_start(cast(box), row, 0, 0, 4)
                rowWidth = 0
            }
            gtk_box_pack_start(cast(row!), tile, 0, 0, 0)
            rowWidth += width
            tiles.append(tile)
        }
        gtk_box_pack_start(cast(list), box, 0, 0, 0)
        gtk_widget_show_all(box)
        let words = ([first.displayName, first.description, first.kind] + items.map(\.family.galleryName)).joined(separator: " ").lowercased()
        sections.append((box, words, tiles))
    }

    private func makeTile(_ item: GalleryItem, tree: ViewNode?, pictures: PreviewPicture, ambiguous: Bool) -> UnsafeMutablePointer<GtkWidget> {
        let button = gtk_button_new()!
        gtk_button_set_relief(cast(button), GTK_RELIEF_NONE)
        let content = gtk_box_new(GTK_ORIENTATION_VERTICAL, 6)!
        let size = item.family.nominalSize
        let picture = tree.flatMap { pictures.image($0, family: item.family) } ?? {
            let missing = gtk_label_new("No preview")!
            gtk_widget_set_size_request(missing, Int32(size.width), Int32(size.height))
            return missing
        }()
        gtk_box_pack_start(cast(content), picture, 0, 0, 0)
        let caption = item.family.galleryName + (item.placed.isEmpty ? "" : " · added")   // configured already (maybe not on the desktop)
        let label = gtk_label_new(caption)!
        gtk_style_context_add_class(gtk_widget_get_style_context(label), "dim-label")
        gtk_box_pack_start(cast(content), label, 0, 0, 0)
        gtk_container_add(cast(button), content)
        gtk_widget_set_valign(button, GTK_ALIGN_START)
        let name = "\(item.displayName), \(item.family.galleryName)" + (ambiguous ? " (\(item.bundle))" : "")
        setAccessible(button, name: name, description: "Adds \(item.displayName) in the \(item.family.galleryName.lowercased()) size. \(item.description)")
        gtk_widget_set_tooltip_text(button, "Add \(item.displayName) (\(item.family.galleryName))")
        SignalHandler.connect(button, "clicked") { self.add(item, ambiguous: ambiguous) }
        TileDragSource.attach(to: button, payload: WidgetDragPayload(placement: placement(item, ambiguous: ambiguous)))
        return button
    }

    /// What choosing `item` adds, and what dragging its tile carries.
    private func placement(_ item: GalleryItem, ambiguous: Bool) -> WidgetPlacement {
        // A widget added from the desktop's gallery is drawn for the desktop, whatever the
        // config's default outputs are.
        let defaults = config.defaults.outputs
        let outputs = defaults.contains(.png) ? nil : (defaults + [.png]).map(\.rawValue)
        return WidgetPlacement(kind: item.kind, family: item.family.rawValue, bundle: ambiguous ? item.bundle : nil, outputs: outputs)
    }

    /// Adds `item` through the config-edit library; the window shows why when it is refused.
    private func add(_ item: GalleryItem, ambiguous: Bool) {
        let placement = placement(item, ambiguous: ambiguous)
        do {
            let id = try file.edit { try $0.apply(.add(placement)) }
            added(id, item)
        } catch {
            showError("\(item.displayName) (\(item.family.galleryName)) was not added: \(error)")
        }
    }

    private func showError(_ message: String) {
        gtk_label_set_markup(cast(status), "<span foreground=\"#c01c28\">\(markupEscaped(message))</span>")
        gtk_style_context_remove_class(gtk_widget_get_style_context(status), "dim-label")
        gtk_widget_show(status)
    }

    /// Shows the sections every word of the search matches (name, description, kind, sizes).
    private func filter() {
        let words = String(cString: gtk_entry_get_text(cast(search))).lowercased().split(separator: " ")
        var shown = 0
        for s in sections {
            let visible = words.allSatisfy { s.words.contains($0) }
            gtk_widget_set_visible(s.box, visible ? 1 : 0)
            if visible { shown += 1 }
        }
        if shown == 0 && !sections.isEmpty {
            gtk_label_set_text(cast(noMatch), "No widgets match “\(words.joined(separator: " "))”.")
            gtk_widget_show(noMatch)
        } else {
            gtk_widget_hide(noMatch)
        }
    }

    private func focusFirstTile() {
        for s in sections where gtk_widget_get_visible(s.box) != 0 {
            if let tile = s.tiles.first { gtk_widget_grab_focus(tile); return }
        }
    }
}
