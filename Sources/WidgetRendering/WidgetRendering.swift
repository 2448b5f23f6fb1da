// WidgetRendering: see docs/architecture.md
