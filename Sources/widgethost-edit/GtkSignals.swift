import CGtk

/// Swift closures as GObject signal handlers: the closure (and what it captures: a window
/// object captures itself, so it lives as long as its widget) is kept alive by the connection and
/// released when the instance is finalized or the handler disconnected.
///
/// Threading: GTK's main thread only (every caller is a GTK callback or runs before `gtk_main`).
final class SignalHandler {
    let action: () -> Void
    let key: ((UnsafeMutablePointer<GdkEventKey>) -> Bool)?

    private init(action: @escaping () -> Void, key: ((UnsafeMutablePointer<GdkEventKey>) -> Bool)? = nil) {
        self.action = action; self.key = key
    }

    private static let release: GClosureNotify = { data, _ in
        guard let data else { return }
        Unmanaged<SignalHandler>.fromOpaque(data).release()
    }

    /// `action` on `signal` of `instance`, for the signals whose handler takes the instance and
    /// the user data only ("clicked", "search-changed", "activate", "destroy", "changed"…).
    static func connect(_ instance: UnsafeMutableRawPointer, _ signal: String, _ action: @escaping () -> Void) {
        let handler: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = { _, data in
            guard let data else { return }
            Unmanaged<SignalHandler>.fromOpaque(data).takeUnretainedValue().action()
        }
        let box = Unmanaged.passRetained(SignalHandler(action: action)).toOpaque()
        g_signal_connect_data(instance, signal, unsafeBitCast(handler, to: GCallback.self), box, release, GConnectFlags(rawValue: 0))
    }

    /// `key` on "key-press-event" of `widget`; true from it stops the event there.
    static func onKeyPress(_ widget: UnsafeMutablePointer<GtkWidget>, _ key: @escaping (UnsafeMutablePointer<GdkEventKey>) -> Bool) {
        let handler: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<GdkEventKey>?, UnsafeMutableRawPointer?) -> gboolean = { _, event, data in
            guard let event, let data else { return 0 }
            return Unmanaged<SignalHandler>.fromOpaque(data).takeUnretainedValue().key?(event) == true ? 1 : 0
        }
        let box = Unmanaged.passRetained(SignalHandler(action: {}, key: key)).toOpaque()
        g_signal_connect_data(widget, "key-press-event", unsafeBitCast(handler, to: GCallback.self), box, release, GConnectFlags(rawValue: 0))
    }
}

/// A GTK widget pointer as the pointer type a function of its class takes.
func cast<T>(_ p: UnsafeMutablePointer<GtkWidget>) -> UnsafeMutablePointer<T> {
    UnsafeMutableRawPointer(p).assumingMemoryBound(to: T.self)
}

/// The name and description assistive technologies (screen readers, AT-SPI tests) give `widget`.
func setAccessible(_ widget: UnsafeMutablePointer<GtkWidget>, name: String, description: String? = nil) {
    guard let object = gtk_widget_get_accessible(widget) else { return }
    atk_object_set_name(object, name)
    if let description { atk_object_set_description(object, description) }
}

/// Text for Pango markup: `&`, `<`, `>` escaped.
func markupEscaped(_ s: String) -> String {
    guard let escaped = g_markup_escape_text(s, -1) else { return "" }
    defer { g_free(escaped) }
    return String(cString: escaped)
}

/// A label aligned to the start; `markup` is Pango markup. `wrap`: its lines wrap at 48 to 60
/// characters (GTK 3 sizes a window's height for a wrapping label's narrowest width, so that
/// width is kept sensible; short labels in small windows do not wrap).
func makeLabel(_ text: String, markup: Bool = false, dim: Bool = false, wrap: Bool = true) -> UnsafeMutablePointer<GtkWidget> {
    let label = gtk_label_new(nil)!
    if markup { gtk_label_set_markup(cast(label), text) } else { gtk_label_set_text(cast(label), text) }
    gtk_label_set_xalign(cast(label), 0)
    if wrap {
        gtk_label_set_line_wrap(cast(label), 1)
        gtk_label_set_width_chars(cast(label), 48)   // its narrowest: wraps, but not into a tall column
        gtk_label_set_max_width_chars(cast(label), 60)
    }
    if dim { gtk_style_context_add_class(gtk_widget_get_style_context(label), "dim-label") }
    return label
}

/// Escape closes `window` (keyboard reach for every window of the editor); it opens centred on
/// the screen, whatever window was there before.
func closeOnEscape(_ window: UnsafeMutablePointer<GtkWidget>) {
    gtk_window_set_position(cast(window), GTK_WIN_POS_CENTER)
    SignalHandler.onKeyPress(window) { event in
        guard event.pointee.keyval == UInt32(GDK_KEY_Escape) else { return false }
        gtk_widget_destroy(window)
        return true
    }
}
