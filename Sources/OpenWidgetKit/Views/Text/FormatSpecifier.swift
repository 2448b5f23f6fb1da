#if canImport(Glibc)
import Glibc
#endif

/// `"\(value, specifier: "%.1f")"`: one value formatted by a printf conversion, as SwiftUI's
/// `LocalizedStringKey` does. Pure; safe from any thread.
///
/// The specifier is checked before it reaches C: text around at most one conversion
/// (`%[flags][width][.precision][length]d|i|u|o|x|X|c` for integers, `f|F|e|E|g|G|a|A` for
/// floating point, `%%` for a percent sign), and the conversion must fit the value's type. A
/// specifier that does not (`%s`, `%@`, two conversions, `%d` of a `Double`) gives the value's
/// `description`, never undefined behaviour. Numbers are formatted in the C locale (`1234.5`),
/// as the worker's C library is; `format:` styles are the locale-aware way.
enum FormatSpecifier {
    static func format<T>(_ value: T, specifier: String) -> String {
        guard let spec = Conversion(specifier) else { return String(describing: value) }
        if spec.isInteger {
            if let v = value as? any BinaryInteger {
                if let signed = Int64(exactly: v) { return spec.printed(signed, length: "ll") }
                if let unsigned = UInt64(exactly: v) { return spec.printed(unsigned, length: "ll") }
            }
        } else if let v = value as? any BinaryFloatingPoint {
            return spec.printed(Double(v), length: "")
        }
        return String(describing: value)
    }

    /// A checked specifier: `prefix` `%` `flags` `conversion` `suffix`, `%%` already in the texts.
    struct Conversion {
        var prefix: String, flags: String, conversion: Character, suffix: String
        var isInteger: Bool { "diuoxXc".contains(conversion) }

        init?(_ specifier: String) {
            var prefix = "", suffix = "", flags = ""
            var conversion: Character?
            var i = specifier.startIndex
            while i < specifier.endIndex {
                let c = specifier[i]
                i = specifier.index(after: i)
                guard c == "%" else { if conversion == nil { prefix.append(c) } else { suffix.append(c) }; continue }
                guard i < specifier.endIndex else { return nil }
                if specifier[i] == "%" {
                    if conversion == nil { prefix += "%%" } else { suffix += "%%" }
                    i = specifier.index(after: i)
                    continue
                }
                guard conversion == nil else { return nil }  // a second conversion
                while i < specifier.endIndex, "-+ #0123456789.".contains(specifier[i]) { flags.append(specifier[i]); i = specifier.index(after: i) }
                while i < specifier.endIndex, "hlqLzjt".contains(specifier[i]) { i = specifier.index(after: i) }  // replaced by the value's
                guard i < specifier.endIndex, "diuoxXcfFeEgGaA".contains(specifier[i]) else { return nil }
                guard flags.filter({ $0 == "." }).count <= 1, flags.count <= 12 else { return nil }
                conversion = specifier[i]
                i = specifier.index(after: i)
            }
            guard let conversion else { return nil }
            self.prefix = prefix; self.flags = flags; self.conversion = conversion; self.suffix = suffix
        }

        func printed(_ value: any CVarArg, length: String) -> String {
            let format = prefix + "%" + flags + length + String(conversion) + suffix
            return withVaList([value]) { args in
                var buffer = [CChar](repeating: 0, count: 512)
                let n = vsnprintf(&buffer, buffer.count, format, args)
                guard n >= 0 else { return "" }
                return String(decoding: buffer.prefix(min(Int(n), buffer.count - 1)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            }
        }
    }
}

extension LocalizedStringKey.StringInterpolation {
    /// `"\(ratio * 100, specifier: "%.0f")%"`: the value by a printf conversion (`FormatSpecifier`);
    /// in the key for the string tables, the specifier itself, as Apple's key has it.
    public mutating func appendInterpolation<T>(_ value: T, specifier: String) {
        let formatted = FormatSpecifier.format(value, specifier: specifier)
        appendValue(formatted, .of(value, plain: formatted), specifier: specifier)
    }
}
