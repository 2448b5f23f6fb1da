print("widgethost")
