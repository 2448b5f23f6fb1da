// What `import WidgetKit`, `import SwiftUI`, `import AppIntents`, `import Intents` and
// `import UIKit` bring to widget code here, as those frameworks bring it on iOS: the SDK's names (OpenWidgetKit),
// `#Preview` (WidgetPreviews) and all of Foundation — `UserDefaults`, `DateFormatter`,
// `NumberFormatter`, `NSLocalizedString`, `CharacterSet`, `TimeZone(identifier:)`… — with ICU,
// which costs a worker more memory and start time than FoundationEssentials alone
// (docs/performance.md). Widget code that wants the lean worker imports `OpenWidgetKit`.
//
// Declarations only, but for the localisation functions that forward to the SDK (Localization.swift)
// and the number formats of NumberFormatted.swift.
@_exported import Foundation
@_exported import OpenWidgetKit
@_exported import WidgetPreviews

/// One `CGFloat` for code that sees both the SDK and Foundation: the SDK's (a `Double`).
/// Declared in a module that imports both, it shadows each of theirs, so `CGFloat` in widget
/// code is not ambiguous even without the `WidgetBundleSupport` build plugin.
public typealias CGFloat = OpenWidgetKit.CGFloat

/// One `CGSize`, `CGPoint` and `CGRect` for the same reason: the SDK's (what `GeometryProxy`
/// gives), shadowing Foundation's.
public typealias CGSize = OpenWidgetKit.CGSize
public typealias CGPoint = OpenWidgetKit.CGPoint
public typealias CGRect = OpenWidgetKit.CGRect
