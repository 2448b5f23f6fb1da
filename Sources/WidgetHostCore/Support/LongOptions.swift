/// A parser for the `--name value`, `--name=value` and `--flag` arguments of the two commands
/// that start often and are parsed without swift-argument-parser (`widgethost-worker`, `run`):
/// callgrind put ArgumentParser at a third of a daemon's instructions over its first 20 s,
/// most of it Swift conformance lookups done once per process. The commands' `ParsableCommand`
/// declarations stay the reference (and serve `--help`); errors read like ArgumentParser's.
/// Value type.
public struct LongOptions {
    public struct Invalid: Error, CustomStringConvertible {
        public let description: String
        public init(description: String) { self.description = description }
    }

    /// Option name (without `--`) → its value; flags map to "".
    private(set) var values: [String: String] = [:]

    /// - Parameters:
    ///   - valued: names that take a value; `flags`: names that take none.
    public init(_ arguments: [String], valued: Set<String>, flags: Set<String> = []) throws(Invalid) {
        var i = 0
        while i < arguments.count {
            let arg = arguments[i]
            i += 1
            guard arg.hasPrefix("--"), arg.count > 2 else { throw Invalid(description: "unexpected argument '\(arg)'") }
            var name = String(arg.dropFirst(2)), value: String?
            if let eq = name.firstIndex(of: "=") {
                value = String(name[name.index(after: eq)...]); name = String(name[..<eq])
            }
            if flags.contains(name) {
                guard value == nil else { throw Invalid(description: "'--\(name)' takes no value") }
                values[name] = ""
            } else if valued.contains(name) {
                if value == nil, i < arguments.count, !arguments[i].hasPrefix("--") { value = arguments[i]; i += 1 }
                guard let value else { throw Invalid(description: "missing value for '--\(name)'") }
                values[name] = value
            } else {
                throw Invalid(description: "unknown option '--\(name)'")
            }
        }
    }

    public func string(_ name: String) -> String? { values[name] }
    public func flag(_ name: String) -> Bool { values[name] != nil }

    /// A non-negative integer, or `absent` when the option is not given.
    public func count(_ name: String, absent: Int) throws(Invalid) -> Int {
        guard let v = values[name] else { return absent }
        guard let n = Int(v), n >= 0 else { throw Invalid(description: "invalid value '\(v)' for '--\(name)'") }
        return n
    }

    /// One of `T`'s raw values, or `absent`.
    public func choice<T: RawRepresentable & CaseIterable>(_ name: String, absent: T) throws(Invalid) -> T where T.RawValue == String {
        guard let v = values[name] else { return absent }
        guard let c = T(rawValue: v) else {
            throw Invalid(description: "invalid value '\(v)' for '--\(name)' (\(T.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        return c
    }
}
