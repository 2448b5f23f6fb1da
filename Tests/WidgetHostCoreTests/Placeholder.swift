import Testing

@Test func placeholder_WidgetHostCoreTests() {}
