// `import WidgetKit` for widget code written for iOS: the SDK, `#Preview` and Foundation, under
// Apple's module name (Sources/AppleFrameworks). The Apple-named modules bring the same
// names; a file may import any of them, as an iOS widget extension's files do.
@_exported import AppleFrameworks
