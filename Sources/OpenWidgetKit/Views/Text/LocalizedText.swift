/// The localised forms of `Text` and of a configuration's name and description, as iOS widget
/// code writes them. The SDK does not localise yet (docs/widgetkit-parity.md): the key is the
/// text, and a comment is for translators only. Pure.
extension Text {
    /// `Text("Steps", comment: "The title of the steps widget")`.
    public init(_ key: LocalizedStringKey, comment: StaticString) { self = key.text }

    /// `Text(LocalizedStringResource("Steps"))`, `Text(intent.title)`: the resource's key.
    @_disfavoredOverload public init(_ resource: LocalizedStringResource) { self.init(verbatim: resource.key) }
}

extension WidgetConfiguration {
    /// `.configurationDisplayName(Text("Steps"))`: the text's characters.
    public func configurationDisplayName(_ text: Text) -> some WidgetConfiguration { configurationDisplayName(text.plainText) }

    /// `.description(Text("Your steps today."))`: the text's characters.
    public func description(_ text: Text) -> some WidgetConfiguration { description(text.plainText) }
}
