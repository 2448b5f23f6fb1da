import Testing

@Test func placeholder_OpenWidgetKitTests() {}
