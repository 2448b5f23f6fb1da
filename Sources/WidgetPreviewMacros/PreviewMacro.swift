import SwiftSyntax
import SwiftSyntaxMacros

/// `#Preview` for widgets, expanded at file scope into one exported C function per preview,
/// `owk_preview_<unique>`, that hands the preview to the SDK (`WidgetPreviews`). The plugin's
/// `describe` finds them by that prefix in the `.so`'s dynamic symbols, so `widgethost preview`
/// lists a bundle's previews by name with no registration code. The arguments are passed on
/// unchanged, so the SDK's overloads type-check them as Apple's do.
public struct WidgetPreviewMacro: DeclarationMacro {
    public static func expansion(of node: some FreestandingMacroExpansionSyntax,
                                 in context: some MacroExpansionContext) throws -> [DeclSyntax] {
        let uniqueName = context.makeUniqueName("preview")
        let unique = uniqueName.text
        let cName = "owk_preview_" + String(unique.unicodeScalars.map { s -> Character in
            (s.properties.isASCIIHexDigit || ("a"..."z").contains(s) || ("A"..."Z").contains(s) || s == "_") ? Character(s) : "_"
        })
        var arguments = node.arguments.map { $0.with(\.trailingComma, nil).trimmedDescription }
        var closures: [String] = []
        if let trailing = node.trailingClosure { closures.append(trailing.trimmedDescription) }
        for extra in node.additionalTrailingClosures { closures.append("\(extra.label.text): \(extra.closure.trimmedDescription)") }
        // The first trailing closure is the content (`widget:` for widget previews, `body:` for views).
        if let first = closures.first {
            let label = arguments.contains { $0.hasPrefix("as:") } ? "widget: " : "body: "
            closures[0] = label + first
        }
        arguments += closures
        let call = "_WidgetPreviewRegistry.make(" + arguments.joined(separator: ", ") + ")"
        return ["""
            @_cdecl("\(raw: cName)") public func \(uniqueName)() -> UnsafeMutableRawPointer {
                \(raw: call)
            }
            """]
    }
}
