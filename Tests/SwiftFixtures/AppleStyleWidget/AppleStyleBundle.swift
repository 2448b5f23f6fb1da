import OpenWidgetKit

@main
struct AppleStyleBundle: WidgetBundle {
    var body: some Widget {
        CityWidget()
        GalleryWidget()
        AppearanceWidget()
    }
}

