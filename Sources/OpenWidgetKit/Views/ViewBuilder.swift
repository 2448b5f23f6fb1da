/// SKELETON — replaced by the full result builder.
@resultBuilder
public enum ViewBuilder {
    public static func buildBlock<C: View>(_ c: C) -> C { c }
}
