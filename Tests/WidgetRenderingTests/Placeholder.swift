import Testing

@Test func placeholder_WidgetRenderingTests() {}
