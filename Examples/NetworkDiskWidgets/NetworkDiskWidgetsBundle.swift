import FoundationEssentials
import OpenWidgetKit

/// The bundle's widgets (its entry point is `Examples/NetworkDiskWidgetsEntry`).
public struct NetworkDiskWidgets: WidgetBundle {
    public init() {}

    public var body: some Widget {
        NetworkWidget()
        DiskWidget()
    }
}
