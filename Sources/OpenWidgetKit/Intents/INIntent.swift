import FoundationEssentials

/// The base class of a SiriKit configuration intent, for `IntentConfiguration` widgets written
/// before iOS 17. On iOS, Xcode generates the subclass from the `.intentdefinition` file; here
/// the author declares it, with each parameter of the definition as a `@Parameter` property
/// where Xcode writes `@NSManaged` (docs/porting.md "IntentConfiguration"):
///
///     public class ConfigurationIntent: INIntent {
///         @Parameter(title: "City") public var city: String?
///         @Parameter public var showSeconds: Bool?
///     }
///
/// The SDK creates one with `init()` per request and sets its parameters from the widget's
/// configuration (by property name, as an `AppIntent`'s), so a subclass needs no initialiser of
/// its own. An intent is used by one thread at a time.
open class INIntent {
    /// Accepted for source compatibility; the host does not set it.
    public var identifier: String?
    /// Siri's phrase for a shortcut; accepted, not used.
    public var suggestedInvocationPhrase: String?
    public required init() {}
}

/// A configuration the widget suggests where it cannot be edited (watchOS, iOS's Smart Stack);
/// accepted for source compatibility, not shown.
public struct IntentRecommendation<Intent: INIntent> {
    public let intent: Intent
    public let description: String
    public init(intent: Intent, description: String) { self.intent = intent; self.description = description }
    public init(intent: Intent, description: Text) { self.init(intent: intent, description: description.plainText) }
}
