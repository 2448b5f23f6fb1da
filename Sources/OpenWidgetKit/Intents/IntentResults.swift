/// The richer results of an intent's `perform()`, as AppIntents declares them, so iOS intents
/// compile as written:
///
///     func perform() async throws -> some IntentResult & ReturnsValue<Int> & ProvidesDialog {
///         .result(value: count, dialog: "Logged \(count)")
///     }
///
/// A widget's intent runs for its side effects (the widget reloads after it, docs/plugin-abi.md);
/// the value, the dialog and the snippet view are accepted and not shown: there is no Siri or
/// Shortcuts here to show them. Values; safe from any thread.
public protocol ReturnsValue<Value>: IntentResult { associatedtype Value }
/// A result with a dialog for Siri to speak (`.result(dialog: "Done")`).
public protocol ProvidesDialog: IntentResult {}
/// A result with a view for Siri or Shortcuts to show (`.result(view: Text("Done"))`).
public protocol ShowsSnippetView: IntentResult {}

/// What Siri says after an intent: `"Done"` as a string literal.
public struct IntentDialog: ExpressibleByStringLiteral, ExpressibleByStringInterpolation, Hashable, Sendable {
    public var text: String
    public init(_ text: LocalizedStringResource) { self.text = text.key }
    public init(stringLiteral value: String) { text = value }
}

/// The result `.result(value:dialog:view:)` and its shorter forms make. Not for authors.
public struct _IntentResultOf<Value>: ReturnsValue, ProvidesDialog, ShowsSnippetView {
    public let value: Value?
    public let dialog: IntentDialog?
}

/// The value of a result that returns none (`.result(dialog:)`).
public struct _NoIntentValue: Sendable {}

extension IntentResult {
    public static func result<V>(value: V) -> _IntentResultOf<V> where Self == _IntentResultOf<V> {
        _IntentResultOf(value: value, dialog: nil)
    }
    public static func result<V>(value: V, dialog: IntentDialog) -> _IntentResultOf<V> where Self == _IntentResultOf<V> {
        _IntentResultOf(value: value, dialog: dialog)
    }
    public static func result<V, Content: View>(value: V, dialog: IntentDialog, view: Content) -> _IntentResultOf<V> where Self == _IntentResultOf<V> {
        _IntentResultOf(value: value, dialog: dialog)
    }
    public static func result(dialog: IntentDialog) -> _IntentResultOf<_NoIntentValue> where Self == _IntentResultOf<_NoIntentValue> {
        _IntentResultOf(value: nil, dialog: dialog)
    }
    public static func result<Content: View>(dialog: IntentDialog, view: Content) -> _IntentResultOf<_NoIntentValue> where Self == _IntentResultOf<_NoIntentValue> {
        _IntentResultOf(value: nil, dialog: dialog)
    }
    public static func result<Content: View>(view: Content) -> _IntentResultOf<_NoIntentValue> where Self == _IntentResultOf<_NoIntentValue> {
        _IntentResultOf(value: nil, dialog: nil)
    }
}
