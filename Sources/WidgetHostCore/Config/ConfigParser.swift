import FoundationEssentials
import OpenWidgetKit

/// A rejected config: the JSON path of the offending value (`widgets[2].family`) and why.
public struct ConfigError: Error, Equatable, CustomStringConvertible {
    public let path: String
    public let reason: String
    public init(path: String, reason: String) { self.path = path; self.reason = reason }
    public var description: String { path.isEmpty ? reason : "\(path): \(reason)" }
}

/// The errors found so far while checking a config (`ConfigParser.check`). A reference so nested
/// parsers add to one list; used on one thread for one parse.
final class ConfigProblems {
    private(set) var list: [ConfigError] = []

    /// Thrown by a part whose errors are already in the list (it has no value to return).
    static let alreadyRecorded = ConfigError(path: "", reason: "(recorded)")

    func add(_ e: ConfigError) { list.append(e) }

    /// Runs `body`; an error it throws is added to the list (unless already recorded) and nil returned.
    @discardableResult
    func attempt<T>(_ body: () throws(ConfigError) -> T) -> T? {
        do { return try body() } catch {
            if error != Self.alreadyRecorded { list.append(error) }
            return nil
        }
    }
}

/// Parses `config.json` strictly: unknown keys and wrong types are errors naming the JSON path.
/// Pure (no I/O): the caller reads the file. Safe from any thread.
public enum ConfigParser {
    /// - Parameters:
    ///   - data: the file's bytes (empty = all defaults).
    ///   - baseDirectory: the file's directory, against which relative paths resolve.
    ///   - environment: for XDG defaults.
    public static func parse(_ data: Data, baseDirectory: String, environment: [String: String]) throws(ConfigError) -> HostConfig {
        let checked = check(data, baseDirectory: baseDirectory, environment: environment)
        if let first = checked.errors.first { throw first }
        return checked.config
    }

    /// Parses `data` and collects every error (in document order: top-level keys, `paths`,
    /// `defaults`, `widgets`, `bundles`), not only the first: what `widgethost validate` lists.
    /// `config` holds what could be read (defaults where a value was wrong) and is only fit to
    /// use when `errors` is empty.
    public static func check(_ data: Data, baseDirectory: String, environment: [String: String]) -> (config: HostConfig, errors: [ConfigError]) {
        let problems = ConfigProblems()
        var paths = HostPaths.defaults(environment)
        var defaults = HostConfig.Defaults()
        let root: JSONValue
        if data.allSatisfy({ $0 == 0x20 || $0 == 0x0a || $0 == 0x0d || $0 == 0x09 }) {
            root = .object([:])
        } else {
            do { root = try WireCodec.decodeJSONValue(data) } catch {
                let located = JSONSyntaxLocator.locate(data).map { "not valid JSON: \($0)" }
                problems.add(ConfigError(path: "", reason: located ?? "not valid JSON (\(Self.describe(error)))"))
                return (HostConfig(paths: paths), problems.list)
            }
        }
        guard let top = problems.attempt({ () throws(ConfigError) in
            try object(root, at: "", keys: ["paths", "widgets", "defaults", "bundles", "desktop", "$schema", "comment"], problems: problems)
        }) else { return (HostConfig(paths: paths), problems.list) }

        if let p = top["paths"], let po = problems.attempt({ () throws(ConfigError) in
            try object(p, at: "paths", keys: ["plugins", "out", "containers", "state", "socket"], problems: problems)
        }) {
            func resolve(_ key: String, _ keyPath: WritableKeyPath<HostConfig.Paths, String>) {
                guard let v = po[key] else { return }
                problems.attempt { () throws(ConfigError) in
                    let s = try string(v, at: "paths.\(key)")
                    guard !s.isEmpty else { throw ConfigError(path: "paths.\(key)", reason: "must not be empty") }
                    paths[keyPath: keyPath] = Self.absolute(s, base: baseDirectory, environment: environment)
                }
            }
            resolve("plugins", \.plugins)
            resolve("out", \.out)
            resolve("containers", \.containers)
            resolve("state", \.state)
            if let v = po["socket"] {
                problems.attempt { () throws(ConfigError) in
                    let s = try string(v, at: "paths.socket")
                    guard !s.isEmpty else { throw ConfigError(path: "paths.socket", reason: "must not be empty") }
                    paths.socket = Self.absolute(s, base: baseDirectory, environment: environment)
                }
            }
        }

        if let d = top["defaults"], let dobj = problems.attempt({ () throws(ConfigError) in
            try object(d, at: "defaults", keys: ["outputs", "families", "containerCoalesceMs", "pluginSettleMs",
                                                 "minReloadSeconds", "requestTimeoutSeconds", "retryMaxSeconds", "timelineSaveDelaySeconds",
                                                 "opener", "openSchemes", "limits", "picture"], problems: problems)
        }) {
            func set(_ key: String, _ body: (JSONValue) throws(ConfigError) -> Void) {
                guard let v = dobj[key] else { return }
                problems.attempt { () throws(ConfigError) in try body(v) }
            }
            set("outputs") { v throws(ConfigError) in defaults.outputs = try outputs(v, at: "defaults.outputs") }
            set("families") { v throws(ConfigError) in
                let items = try array(v, at: "defaults.families")
                var fams: [WidgetFamily] = []
                for (i, f) in items.enumerated() {
                    if let fam = problems.attempt({ () throws(ConfigError) in try family(f, at: "defaults.families[\(i)]") }) { fams.append(fam) }
                }
                defaults.families = fams
            }
            set("containerCoalesceMs") { v throws(ConfigError) in defaults.containerCoalesceMs = Int(try number(v, at: "defaults.containerCoalesceMs", min: 0, max: 60_000)) }
            set("pluginSettleMs") { v throws(ConfigError) in defaults.pluginSettleMs = Int(try number(v, at: "defaults.pluginSettleMs", min: 0, max: 60_000)) }
            set("minReloadSeconds") { v throws(ConfigError) in defaults.minReloadSeconds = try number(v, at: "defaults.minReloadSeconds", min: 0, max: 86_400) }
            set("requestTimeoutSeconds") { v throws(ConfigError) in defaults.requestTimeoutSeconds = try number(v, at: "defaults.requestTimeoutSeconds", min: 0.1, max: 600) }
            set("timelineSaveDelaySeconds") { v throws(ConfigError) in
                defaults.timelineSaveDelaySeconds = try number(v, at: "defaults.timelineSaveDelaySeconds", min: 0, max: 3_600)
            }
            set("opener") { v throws(ConfigError) in defaults.opener = try opener(v, at: "defaults.opener") }
            set("openSchemes") { v throws(ConfigError) in defaults.openSchemes = try openSchemes(v, at: "defaults.openSchemes") }
            set("retryMaxSeconds") { v throws(ConfigError) in defaults.retryMaxSeconds = try number(v, at: "defaults.retryMaxSeconds", min: 1, max: 86_400) }
            set("picture") { v throws(ConfigError) in
                defaults.picture = try PictureSettings.parse(v, at: "defaults.picture", base: defaults.picture, problems: problems)
            }
            set("limits") { v throws(ConfigError) in
                defaults.limits = defaults.limits.applying(try Limits.parseOverrides(v, at: "defaults.limits", problems: problems))
            }
        }

        var widgets: [HostConfig.Widget]? = nil
        if let w = top["widgets"], w != .null, let items = problems.attempt({ () throws(ConfigError) in try array(w, at: "widgets") }) {
            var list: [HostConfig.Widget] = []
            var seen: Set<String> = []
            if items.count > HostConfig.widgetLimit {
                problems.add(ConfigError(path: "widgets", reason: "\(items.count) widgets: at most \(HostConfig.widgetLimit) per config (docs/limits.md)"))
            }
            for (i, item) in items.enumerated() {
                problems.attempt { () throws(ConfigError) in
                    list.append(try widget(item, at: "widgets[\(i)]", defaults: defaults, seen: &seen, problems: problems))
                }
            }
            widgets = list
        }
        let bundles = top["bundles"].flatMap { v in
            problems.attempt { () throws(ConfigError) in try Limits.parseBundles(v, problems: problems) }
        } ?? [:]
        var config = HostConfig(paths: paths, widgets: widgets, defaults: defaults, bundles: bundles)
        if let d = top["desktop"] {
            config.desktop = problems.attempt { () throws(ConfigError) in
                try DesktopConfig.parse(d, at: "desktop", widgetIDs: widgets.map { Set($0.map(\.id)) })
            }
        }
        return (config, problems.list)
    }

    /// One `widgets[i]` entry; errors in it other than the thrown one are added to `problems`.
    static func widget(_ item: JSONValue, at: String, defaults: HostConfig.Defaults, seen: inout Set<String>,
                       problems: ConfigProblems) throws(ConfigError) -> HostConfig.Widget {
        let o = try object(item, at: at, keys: ["id", "kind", "family", "bundle", "parameters", "outputs", "picture"], problems: problems)
        let kind = problems.attempt { () throws(ConfigError) -> String in
            guard let k = o["kind"] else { throw ConfigError(path: "\(at).kind", reason: "is required") }
            let kind = try string(k, at: "\(at).kind")
            guard !kind.isEmpty else { throw ConfigError(path: "\(at).kind", reason: "must not be empty") }
            return kind
        }
        let fam = problems.attempt { () throws(ConfigError) in try o["family"].map { v throws(ConfigError) in try family(v, at: "\(at).family") } } ?? nil
        let bundle = problems.attempt { () throws(ConfigError) in try o["bundle"].map { v throws(ConfigError) in try string(v, at: "\(at).bundle") } } ?? nil
        var params: [String: JSONValue] = [:]
        if let p = o["parameters"] {
            if case .object(let po) = p { params = po } else {
                problems.add(ConfigError(path: "\(at).parameters", reason: "expected an object, found \(typeName(p))"))
            }
        }
        let outs = problems.attempt { () throws(ConfigError) in try o["outputs"].map { v throws(ConfigError) in try outputs(v, at: "\(at).outputs") } } ?? nil
        let picture = problems.attempt { () throws(ConfigError) in
            try o["picture"].map { v throws(ConfigError) in try PictureSettings.parse(v, at: "\(at).picture", base: defaults.picture, problems: problems) }
        } ?? nil
        var id: String?
        if let v = o["id"] {
            id = problems.attempt { () throws(ConfigError) -> String in
                let raw = try string(v, at: "\(at).id")
                guard !raw.isEmpty else { throw ConfigError(path: "\(at).id", reason: "must not be empty") }
                return WidgetID.sanitize(raw)
            }
        } else if let kind {
            id = WidgetID.sanitize(fam.map { "\(kind)-\($0.rawValue)" } ?? kind)
        }
        guard let kind, let id else { throw ConfigProblems.alreadyRecorded }
        guard seen.insert(id).inserted else {
            throw ConfigError(path: o["id"] != nil ? "\(at).id" : at, reason: "duplicate widget id \"\(id)\"")
        }
        return HostConfig.Widget(id: id, kind: kind, family: fam, bundle: bundle, parameters: params, outputs: outs ?? defaults.outputs,
                                 picture: picture ?? defaults.picture)
    }

    static func absolute(_ s: String, base: String, environment: [String: String]) -> String {
        if s == "~" || s.hasPrefix("~/") { return HostPaths.home(environment) + s.dropFirst() }
        if s.hasPrefix("/") { return s }
        return base + "/" + s
    }

    static func typeName(_ v: JSONValue) -> String {
        switch v {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// The object at `path` with only its known keys. Each unknown key is an error: thrown when
    /// `problems` is nil, else added to it (and the rest of the object is still read).
    static func object(_ v: JSONValue, at path: String, keys: Set<String>, problems: ConfigProblems? = nil) throws(ConfigError) -> [String: JSONValue] {
        guard case .object(let o) = v else { throw ConfigError(path: path, reason: "expected an object, found \(typeName(v))") }
        guard o.keys.contains(where: { !keys.contains($0) }) else { return o }
        let known = keys.filter { !$0.hasPrefix("$") && $0 != "comment" }.sorted().joined(separator: ", ")
        for unknown in o.keys.sorted() where !keys.contains(unknown) {
            let e = ConfigError(path: path.isEmpty ? unknown : "\(path).\(unknown)", reason: "unknown key (known keys: \(known))")
            guard let problems else { throw e }
            problems.add(e)
        }
        return o.filter { keys.contains($0.key) }
    }

    static func array(_ v: JSONValue, at path: String) throws(ConfigError) -> [JSONValue] {
        guard case .array(let a) = v else { throw ConfigError(path: path, reason: "expected an array, found \(typeName(v))") }
        return a
    }

    static func string(_ v: JSONValue, at path: String) throws(ConfigError) -> String {
        guard case .string(let s) = v else { throw ConfigError(path: path, reason: "expected a string, found \(typeName(v))") }
        return s
    }

    static func number(_ v: JSONValue, at path: String, min: Double, max: Double) throws(ConfigError) -> Double {
        guard case .number(let n) = v else { throw ConfigError(path: path, reason: "expected a number, found \(typeName(v))") }
        guard n >= min && n <= max else { throw ConfigError(path: path, reason: "must be between \(min) and \(max), found \(n)") }
        return n
    }

    static func family(_ v: JSONValue, at path: String) throws(ConfigError) -> WidgetFamily {
        let s = try string(v, at: path)
        guard let f = WidgetFamily(rawValue: s) else {
            throw ConfigError(path: path, reason: "unknown family \"\(s)\" (one of: \(WidgetFamily.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        return f
    }

    static func outputs(_ v: JSONValue, at path: String) throws(ConfigError) -> [HostConfig.Output] {
        var out: [HostConfig.Output] = []
        for (i, item) in try array(v, at: path).enumerated() {
            let s = try string(item, at: "\(path)[\(i)]")
            guard let o = HostConfig.Output(rawValue: s) else {
                throw ConfigError(path: "\(path)[\(i)]", reason: "unknown output \"\(s)\" (one of: \(HostConfig.Output.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            if !out.contains(o) { out.append(o) }
        }
        return out
    }

    static func describe(_ error: any Error) -> String {
        if let e = error as? DecodingError {
            switch e {
            case .dataCorrupted(let c): return c.underlyingError.map { "\($0)" } ?? c.debugDescription
            default: return "\(e)"
            }
        }
        return "\(error)"
    }
}
