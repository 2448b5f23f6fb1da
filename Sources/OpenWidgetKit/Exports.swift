/// `import WidgetKit` / `import SwiftUI` bring Foundation's value types (`Date`, `URL`,
/// `Calendar`…) with them; `import OpenWidgetKit` does the same with FoundationEssentials, so
/// a widget file that imports only the SDK compiles. A file that also imports full Foundation
/// sees the same types (Foundation re-exports FoundationEssentials).
@_exported import FoundationEssentials
/// `DispatchQueue` comes with Foundation on Apple platforms; FoundationEssentials does not
/// re-export Dispatch, so the SDK does (libdispatch is loaded by every Swift process here).
@_exported import Dispatch
