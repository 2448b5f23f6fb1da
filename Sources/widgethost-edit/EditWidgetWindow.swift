import CGtk
import FoundationEssentials
import OpenWidgetKit
import WidgetConfigEditing
import WidgetHostCore

/// The "Edit Widget" window of one configured widget: a form generated from its intent
/// parameters (`ParameterForm`: an `AppEnum` as a menu of its display names, a `Bool` as a
/// switch, numbers as spin buttons, text as an entry, each default shown beside it), "Apply",
/// which writes the changed values as `widgethost configure` does (validated; a refusal is
/// shown in the window and leaves the file untouched), and "Remove Widget…", which asks first.
/// The running host reloads the changed config and redraws or drops the widget.
///
/// Keyboard: Tab between the controls, Enter applies (Apply is the default button), Alt+A,
/// Alt+R, Alt+C the buttons, Escape closes. Each control's accessible name is its parameter's
/// title, and its label is its labelled-by relation.
///
/// Threading: GTK's main thread only.
final class EditWidgetWindow {
    let window: UnsafeMutablePointer<GtkWidget>
    private let form: ParameterForm
    private let file: ConfigFileEditor
    private let status: UnsafeMutablePointer<GtkWidget>
    private var controls: [(field: ParameterForm.Field, widget: UnsafeMutablePointer<GtkWidget>)] = []

    init(form: ParameterForm, file: ConfigFileEditor) {
        self.form = form
        self.file = file
        window = gtk_window_new(GTK_WINDOW_TOPLEVEL)
        gtk_window_set_title(cast(window), "Edit Widget")
        gtk_window_set_default_size(cast(window), 440, -1)
        let outer = gtk_box_new(GTK_ORIENTATION_VERTICAL, 12)!
        gtk_container_set_border_width(cast(outer), 16)
        gtk_box_pack_start(cast(outer), makeLabel("<big><b>\(markupEscaped(form.displayName))</b></big>", markup: true, wrap: false), 0, 0, 0)
        gtk_box_pack_start(cast(outer), makeLabel("\(form.id) · \(form.family.galleryName)", dim: true, wrap: false), 0, 0, 0)
        let grid = gtk_grid_new()!
        gtk_grid_set_row_spacing(cast(grid), 8)
        gtk_grid_set_column_spacing(cast(grid), 12)
        for (row, field) in form.fields.enumerated() {
            let label = gtk_label_new(field.title)!
            gtk_label_set_xalign(cast(label), 1)
            let control = Self.control(for: field)
            gtk_label_set_mnemonic_widget(cast(label), control)
            setAccessible(control, name: field.title)
            gtk_widget_set_hexpand(control, 1)
            gtk_grid_attach(cast(grid), label, 0, Int32(row), 1, 1)
            gtk_grid_attach(cast(grid), control, 1, Int32(row), 1, 1)
            if let d = field.defaultValue {
                gtk_grid_attach(cast(grid), makeLabel("Default: \(field.shown(d))", dim: true, wrap: false), 2, Int32(row), 1, 1)
            }
            controls.append((field, control))
        }
        if form.fields.isEmpty { gtk_box_pack_start(cast(outer), makeLabel("This widget has no settings.", dim: true), 0, 0, 0) }
        gtk_box_pack_start(cast(outer), grid, 0, 0, 0)
        status = makeLabel("")
        gtk_label_set_selectable(cast(status), 1)
        gtk_widget_set_can_focus(status, 0)
        gtk_widget_set_no_show_all(status, 1)   // shown with an error only, taking no room before
        gtk_box_pack_start(cast(outer), status, 0, 0, 0)
        let buttons = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 8)!
        let remove = gtk_button_new_with_mnemonic("_Remove Widget…")!
        gtk_style_context_add_class(gtk_widget_get_style_context(remove), "destructive-action")
        let close = gtk_button_new_with_mnemonic("_Close")!
        let apply = gtk_button_new_with_mnemonic("_Apply")!
        gtk_style_context_add_class(gtk_widget_get_style_context(apply), "suggested-action")
        gtk_box_pack_start(cast(buttons), remove, 0, 0, 0)
        gtk_box_pack_end(cast(buttons), apply, 0, 0, 0)
        gtk_box_pack_end(cast(buttons), close, 0, 0, 0)
        gtk_box_pack_start(cast(outer), buttons, 0, 0, 0)
        gtk_container_add(cast(window), outer)
        gtk_widget_set_can_default(apply, 1)
        gtk_window_set_default(cast(window), apply)
        closeOnEscape(window)
        SignalHandler.connect(apply, "clicked") { self.apply() }
        SignalHandler.connect(close, "clicked") { [window] in gtk_widget_destroy(window) }
        SignalHandler.connect(remove, "clicked") { self.confirmRemoval() }
    }

    func show() {
        gtk_widget_show_all(window)
        if let first = controls.first { gtk_widget_grab_focus(first.widget) }
    }

    /// The control of `field`, showing its current value.
    private static func control(for field: ParameterForm.Field) -> UnsafeMutablePointer<GtkWidget> {
        switch field.control {
        case .menu(let options):
            let combo = gtk_combo_box_text_new()!
            for o in options { gtk_combo_box_text_append(cast(combo), o.value, ParameterForm.title(o)) }
            gtk_combo_box_set_active_id(cast(combo), field.value.stringValue ?? "")
            return combo
        case .toggle:
            let toggle = gtk_switch_new()!
            gtk_switch_set_active(cast(toggle), field.value == .bool(true) ? 1 : 0)
            gtk_widget_set_halign(toggle, GTK_ALIGN_START)
            return toggle
        case .number(let bounds, let whole):
            let spin = gtk_spin_button_new_with_range(bounds.lowerBound, bounds.upperBound, 1)!
            gtk_spin_button_set_digits(cast(spin), whole ? 0 : 2)
            if case .number(let n) = field.value { gtk_spin_button_set_value(cast(spin), n) }
            gtk_entry_set_activates_default(cast(spin), 1)
            return spin
        case .text:
            let entry = gtk_entry_new()!
            gtk_entry_set_text(cast(entry), field.value.stringValue ?? JSONText.value(field.value))
            gtk_entry_set_activates_default(cast(entry), 1)
            return entry
        }
    }

    /// What the form shows now, field by field.
    private func inputs() -> [String: ParameterInput] {
        var out: [String: ParameterInput] = [:]
        for (field, widget) in controls {
            switch field.control {
            case .menu:
                if let id = gtk_combo_box_get_active_id(cast(widget)) { out[field.name] = .value(.string(String(cString: id))) }
            case .toggle:
                out[field.name] = .value(.bool(gtk_switch_get_active(cast(widget)) != 0))
            case .number(_, let whole):
                gtk_spin_button_update(cast(widget))
                let v = gtk_spin_button_get_value(cast(widget))
                out[field.name] = .value(.number(whole ? v.rounded() : v))
            case .text:
                out[field.name] = .text(String(cString: gtk_entry_get_text(cast(widget))))
            }
        }
        return out
    }

    /// Writes the changed values (`configure`), then closes; nothing changed: closes.
    private func apply() {
        let changes = form.changes(inputs())
        guard !changes.isEmpty else { gtk_widget_destroy(window); return }
        do {
            _ = try file.edit { try $0.apply(.configure(id: form.id, parameters: changes)) }
            gtk_widget_destroy(window)
        } catch {
            showError("Not applied: \(error)")
        }
    }

    private func confirmRemoval() {
        // Built by hand: gtk_message_dialog_new is variadic, which Swift cannot call.
        let dialog = gtk_dialog_new()!
        gtk_window_set_title(cast(dialog), "Remove Widget")
        gtk_window_set_transient_for(cast(dialog), cast(window))
        gtk_window_set_modal(cast(dialog), 1)
        let content = gtk_dialog_get_content_area(cast(dialog))!
        gtk_container_set_border_width(cast(content), 12)
        gtk_box_set_spacing(cast(content), 8)
        gtk_box_pack_start(cast(content), makeLabel("<b>Remove “\(markupEscaped(form.displayName))”?</b>", markup: true, wrap: false), 0, 0, 0)
        gtk_box_pack_start(cast(content), makeLabel("\(form.id) leaves the desktop and config.json; its settings are lost.", wrap: false), 0, 0, 0)
        gtk_widget_show_all(content)
        _ = gtk_dialog_add_button(cast(dialog), "_Cancel", GTK_RESPONSE_CANCEL.rawValue)
        if let remove = gtk_dialog_add_button(cast(dialog), "_Remove", GTK_RESPONSE_ACCEPT.rawValue) {
            gtk_style_context_add_class(gtk_widget_get_style_context(remove), "destructive-action")
        }
        gtk_dialog_set_default_response(cast(dialog), GTK_RESPONSE_CANCEL.rawValue)
        let answer = gtk_dialog_run(cast(dialog))
        gtk_widget_destroy(dialog)
        guard answer == GTK_RESPONSE_ACCEPT.rawValue else { return }
        do {
            _ = try file.edit { try $0.apply(.remove(id: form.id)) }
            gtk_widget_destroy(window)
        } catch {
            showError("Not removed: \(error)")
        }
    }

    private func showError(_ message: String) {
        gtk_label_set_markup(cast(status), "<span foreground=\"#c01c28\">\(markupEscaped(message))</span>")
        gtk_widget_show(status)
    }
}
