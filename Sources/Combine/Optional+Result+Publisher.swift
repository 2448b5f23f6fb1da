import OpenCombine

// `optional.publisher` and `result.publisher`, as in Apple's Combine. OpenCombine declares them
// only `#if !canImport(Combine)` (like OpenCombineDispatch's scheduler), so whether it has them
// depends on whether this module existed when OpenCombine was last compiled (issue 22). Declared
// here unconditionally: where OpenCombine has them too, these shadow them (a module's declarations
// win over the same ones in a module it imports), so widget code sees one of each either way.
//
// Threading: as Combine's publishers: a subscriber receives on the thread that subscribes.

extension Optional {
    /// Publishes the value once, if there is one, then finishes.
    public typealias Publisher = OCombine.Publisher

    public var publisher: Publisher { Publisher(self) }
}

extension Result {
    /// Publishes the success value once and finishes, or fails with the failure.
    public typealias Publisher = OCombine.Publisher

    public var publisher: Publisher { Publisher(self) }
}
