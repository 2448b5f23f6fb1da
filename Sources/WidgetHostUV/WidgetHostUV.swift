// WidgetHostUV: see docs/architecture.md
