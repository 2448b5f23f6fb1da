/// The size classes a widget can be shown in, with WidgetKit's names.
///
/// `nominalSize` is the size in points WidgetKit documents for a standard iPhone
/// (`systemExtraLarge` for iPad); `cellGrid` is the character grid the text renderer
/// lays a system family out on (a cell is taken as 8 × 16 pt).
public enum WidgetFamily: String, Codable, CaseIterable, Hashable, Sendable, CustomStringConvertible {
    case systemSmall
    case systemMedium
    case systemLarge
    case systemExtraLarge
    case accessoryCircular
    case accessoryRectangular
    case accessoryInline

    public var description: String { rawValue }

    /// Nominal display size in points.
    public var nominalSize: DisplaySize {
        switch self {
        case .systemSmall: DisplaySize(width: 158, height: 158)
        case .systemMedium: DisplaySize(width: 338, height: 158)
        case .systemLarge: DisplaySize(width: 338, height: 354)
        case .systemExtraLarge: DisplaySize(width: 715, height: 354)
        case .accessoryCircular: DisplaySize(width: 76, height: 76)
        case .accessoryRectangular: DisplaySize(width: 160, height: 76)
        case .accessoryInline: DisplaySize(width: 234, height: 20)
        }
    }

    /// Columns × rows of the character grid for this family (8 × 16 pt cells).
    public var cellGrid: (columns: Int, rows: Int) {
        let s = nominalSize
        return (Int(s.width / 8), max(1, Int(s.height / 16)))
    }

    /// The margins iOS puts between a widget's edge and its content (iOS 17+): 16 pt on every
    /// edge of the home-screen families, none for the accessory (lock-screen) families.
    public var defaultContentMargins: EdgeInsetsSpec {
        let m: Double = isAccessory ? 0 : 16
        return EdgeInsetsSpec(top: m, leading: m, bottom: m, trailing: m)
    }

    public var isAccessory: Bool {
        switch self {
        case .accessoryCircular, .accessoryRectangular, .accessoryInline: true
        default: false
        }
    }
}

/// A width and height in points. (`CGSize` lives in the full Foundation overlay; the SDK keeps to
/// FoundationEssentials, so it carries its own plain pair.)
public struct DisplaySize: Codable, Hashable, Sendable {
    public var width: Double
    public var height: Double
    public init(width: Double, height: Double) { self.width = width; self.height = height }
}
