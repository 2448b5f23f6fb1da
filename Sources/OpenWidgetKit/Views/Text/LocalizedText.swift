/// The localised forms of `Text` and of a configuration's name and description, as iOS widget
/// code writes them: keys are looked up in the bundle's string tables in the user's language
/// (`LocalizedStrings`); a comment is for translators only. Pure over the bundle's catalogue.
extension Text {
    /// `Text("Steps", comment: "The title of the steps widget")`.
    public init(_ key: LocalizedStringKey, comment: StaticString) { self = key.localizedText() }

    /// `Text(LocalizedStringResource("Steps"))`, `Text(intent.title)`: the resource in the
    /// user's language.
    @_disfavoredOverload public init(_ resource: LocalizedStringResource) { self.init(verbatim: resource.localized) }
}

extension WidgetConfiguration {
    /// `.configurationDisplayName(Text("Steps"))`: the text's characters.
    public func configurationDisplayName(_ text: Text) -> some WidgetConfiguration { configurationDisplayName(text.plainText) }

    /// `.description(Text("Your steps today."))`: the text's characters.
    public func description(_ text: Text) -> some WidgetConfiguration { description(text.plainText) }
}
