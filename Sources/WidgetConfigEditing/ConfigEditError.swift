/// Why an edit was refused: a sentence naming what is wrong and, where there is a choice, what
/// would be valid. The file is untouched whenever one is thrown.
public struct ConfigEditError: Error, Equatable, Sendable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
