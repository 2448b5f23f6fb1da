import OpenWidgetKit

/// `preview`'s and `validate`'s lines for the colours, images and strings a widget asked its
/// bundle for and did not get (`WireResponse.missingResources`, recorded by the SDK): one line
/// per widget and name, however many entries, families and calls asked for it. Not
/// thread-safe: used by one command on its thread.
final class MissingResourceReport {
    private var reported: Set<String> = []

    /// The new lines for `response` of widget `kind`, each once: `Missing: no color "Nope" in
    /// the bundle's resources`.
    func lines(_ response: WireResponse, kind: String) -> [String] {
        (response.missingResources ?? []).compactMap { name in
            reported.insert(kind + "\u{0}" + name).inserted ? "\(kind): no \(name) in the bundle's resources" : nil
        }
    }
}
