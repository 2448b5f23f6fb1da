import OpenWidgetKit

extension ViewNode {
    /// What the text outputs show for this node when it is an accessibility element that
    /// ignores its children (`accessibilityElement(children: .ignore)`) and has an
    /// `accessibilityLabel`: the label, as a screen reader reads it; nil for any other node,
    /// whose children are shown as usual. Pure; any thread.
    var textOutputLabel: String? {
        guard modifiers?.other?["accessibilityElement"] == .string("ignore"),
              let label = modifiers?.accessibilityLabel, !label.isEmpty else { return nil }
        return label
    }

    /// This node as the text outputs lay it out: a labelled element that ignores its children
    /// becomes a text of its label with the node's modifiers (its frame, padding, style).
    var forTextOutputs: ViewNode {
        guard let label = textOutputLabel else { return self }
        var t = ViewNode(kind: .text)
        t.text = label
        t.modifiers = modifiers
        return t
    }
}
