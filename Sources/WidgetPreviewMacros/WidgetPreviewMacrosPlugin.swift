@_spi(PluginMessage) import SwiftCompilerPluginMessageHandling
import SwiftSyntaxMacros

/// The macro plugin's process: the compiler starts it (`-load-plugin-executable`) and exchanges
/// expansion requests with it over standard input and output until it closes them. This is what
/// swift-syntax's `SwiftCompilerPlugin` module does; the toolchain ships its message handling
/// (`<toolchain>/usr/lib/swift/host`) but not that module, so the few lines are here.
///
/// Threading: one request at a time, on the main thread.
@main
enum WidgetPreviewMacrosPlugin {
    static func main() throws {
        let connection = try StandardIOMessageConnection()
        try CompilerPluginMessageListener(connection: connection, provider: WidgetPreviewMacroProvider()).main()
    }
}

/// Answers the compiler's "which type implements `WidgetPreviewMacros.X`" by name.
struct WidgetPreviewMacroProvider: PluginProvider {
    /// Every macro this plugin implements, by the module and type names `#externalMacro` gives.
    func resolveMacro(moduleName: String, typeName: String) throws -> any Macro.Type {
        switch (moduleName, typeName) {
        case ("WidgetPreviewMacros", "WidgetPreviewMacro"): return WidgetPreviewMacro.self
        default: throw UnknownMacro(description: "no macro \(moduleName).\(typeName) in the WidgetPreviewMacros plugin")
        }
    }
}

/// A macro name the plugin does not implement.
struct UnknownMacro: Error, CustomStringConvertible {
    let description: String
}
