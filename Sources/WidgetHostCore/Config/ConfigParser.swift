import FoundationEssentials
import OpenWidgetKit

/// A rejected config: the JSON path of the offending value (`widgets[2].family`) and why.
public struct ConfigError: Error, Equatable, CustomStringConvertible {
    public let path: String
    public let reason: String
    public init(path: String, reason: String) { self.path = path; self.reason = reason }
    public var description: String { path.isEmpty ? reason : "\(path): \(reason)" }
}

/// Parses `config.json` strictly: unknown keys and wrong types are errors naming the JSON path.
/// Pure (no I/O): the caller reads the file. Safe from any thread.
public enum ConfigParser {
    /// - Parameters:
    ///   - data: the file's bytes (empty = all defaults).
    ///   - baseDirectory: the file's directory, against which relative paths resolve.
    ///   - environment: for XDG defaults.
    public static func parse(_ data: Data, baseDirectory: String, environment: [String: String]) throws(ConfigError) -> HostConfig {
        let root: JSONValue
        if data.allSatisfy({ $0 == 0x20 || $0 == 0x0a || $0 == 0x0d || $0 == 0x09 }) {
            root = .object([:])
        } else {
            do { root = try WireCodec.decode(JSONValue.self, from: data) } catch {
                throw ConfigError(path: "", reason: "not valid JSON (\(Self.describe(error)))")
            }
        }
        let top = try object(root, at: "", keys: ["paths", "widgets", "defaults", "bundles", "desktop", "$schema", "comment"])

        var paths = HostPaths.defaults(environment)
        if let p = top["paths"] {
            let po = try object(p, at: "paths", keys: ["plugins", "out", "containers", "state", "socket"])
            func resolve(_ key: String, _ keyPath: WritableKeyPath<HostConfig.Paths, String>) throws(ConfigError) {
                guard let v = po[key] else { return }
                let s = try string(v, at: "paths.\(key)")
                guard !s.isEmpty else { throw ConfigError(path: "paths.\(key)", reason: "must not be empty") }
                paths[keyPath: keyPath] = Self.absolute(s, base: baseDirectory, environment: environment)
            }
            try resolve("plugins", \.plugins)
            try resolve("out", \.out)
            try resolve("containers", \.containers)
            try resolve("state", \.state)
            if let v = po["socket"] {
                let s = try string(v, at: "paths.socket")
                guard !s.isEmpty else { throw ConfigError(path: "paths.socket", reason: "must not be empty") }
                paths.socket = Self.absolute(s, base: baseDirectory, environment: environment)
            }
        }

        var defaults = HostConfig.Defaults()
        if let d = top["defaults"] {
            let dobj = try object(d, at: "defaults", keys: ["outputs", "families", "containerCoalesceMs", "pluginSettleMs",
                                                             "minReloadSeconds", "requestTimeoutSeconds", "retryMaxSeconds", "timelineSaveDelaySeconds",
                                                             "opener", "limits"])
            if let v = dobj["outputs"] { defaults.outputs = try outputs(v, at: "defaults.outputs") }
            if let v = dobj["families"] {
                let items = try array(v, at: "defaults.families")
                var fams: [WidgetFamily] = []
                for (i, f) in items.enumerated() { fams.append(try family(f, at: "defaults.families[\(i)]")) }
                defaults.families = fams
            }
            if let v = dobj["containerCoalesceMs"] { defaults.containerCoalesceMs = Int(try number(v, at: "defaults.containerCoalesceMs", min: 0, max: 60_000)) }
            if let v = dobj["pluginSettleMs"] { defaults.pluginSettleMs = Int(try number(v, at: "defaults.pluginSettleMs", min: 0, max: 60_000)) }
            if let v = dobj["minReloadSeconds"] { defaults.minReloadSeconds = try number(v, at: "defaults.minReloadSeconds", min: 0, max: 86_400) }
            if let v = dobj["requestTimeoutSeconds"] { defaults.requestTimeoutSeconds = try number(v, at: "defaults.requestTimeoutSeconds", min: 0.1, max: 600) }
            if let v = dobj["timelineSaveDelaySeconds"] {
                defaults.timelineSaveDelaySeconds = try number(v, at: "defaults.timelineSaveDelaySeconds", min: 0, max: 3_600)
            }
            if let v = dobj["opener"] { defaults.opener = try opener(v, at: "defaults.opener") }
            if let v = dobj["retryMaxSeconds"] { defaults.retryMaxSeconds = try number(v, at: "defaults.retryMaxSeconds", min: 1, max: 86_400) }
            if let v = dobj["limits"] { defaults.limits = defaults.limits.applying(try Limits.parseOverrides(v, at: "defaults.limits")) }
        }

        var widgets: [HostConfig.Widget]? = nil
        if let w = top["widgets"], w != .null {
            let items = try array(w, at: "widgets")
            var list: [HostConfig.Widget] = []
            var seen: Set<String> = []
            for (i, item) in items.enumerated() {
                let at = "widgets[\(i)]"
                let o = try object(item, at: at, keys: ["id", "kind", "family", "bundle", "parameters", "outputs"])
                guard let k = o["kind"] else { throw ConfigError(path: "\(at).kind", reason: "is required") }
                let kind = try string(k, at: "\(at).kind")
                guard !kind.isEmpty else { throw ConfigError(path: "\(at).kind", reason: "must not be empty") }
                let fam = try o["family"].map { v throws(ConfigError) in try family(v, at: "\(at).family") }
                let bundle = try o["bundle"].map { v throws(ConfigError) in try string(v, at: "\(at).bundle") }
                var params: [String: JSONValue] = [:]
                if let p = o["parameters"] {
                    guard case .object(let po) = p else { throw ConfigError(path: "\(at).parameters", reason: "expected an object, found \(typeName(p))") }
                    params = po
                }
                let outs = try o["outputs"].map { v throws(ConfigError) in try outputs(v, at: "\(at).outputs") } ?? defaults.outputs
                let id: String
                if let v = o["id"] {
                    let raw = try string(v, at: "\(at).id")
                    guard !raw.isEmpty else { throw ConfigError(path: "\(at).id", reason: "must not be empty") }
                    id = WidgetID.sanitize(raw)
                } else {
                    id = WidgetID.sanitize(fam.map { "\(kind)-\($0.rawValue)" } ?? kind)
                }
                guard seen.insert(id).inserted else {
                    throw ConfigError(path: o["id"] != nil ? "\(at).id" : at, reason: "duplicate widget id \"\(id)\"")
                }
                list.append(HostConfig.Widget(id: id, kind: kind, family: fam, bundle: bundle, parameters: params, outputs: outs))
            }
            widgets = list
        }
        let bundles = try top["bundles"].map { v throws(ConfigError) in try Limits.parseBundles(v) } ?? [:]
        var config = HostConfig(paths: paths, widgets: widgets, defaults: defaults, bundles: bundles)
        config.desktop = try top["desktop"].map { v throws(ConfigError) in
            try DesktopConfig.parse(v, at: "desktop", widgetIDs: widgets.map { Set($0.map(\.id)) })
        }
        return config
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

    static func object(_ v: JSONValue, at path: String, keys: Set<String>) throws(ConfigError) -> [String: JSONValue] {
        guard case .object(let o) = v else { throw ConfigError(path: path, reason: "expected an object, found \(typeName(v))") }
        if let unknown = o.keys.sorted().first(where: { !keys.contains($0) }) {
            let known = keys.filter { !$0.hasPrefix("$") && $0 != "comment" }.sorted().joined(separator: ", ")
            throw ConfigError(path: path.isEmpty ? unknown : "\(path).\(unknown)", reason: "unknown key (known keys: \(known))")
        }
        return o
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
                throw ConfigError(path: "\(path)[\(i)]", reason: "unknown output \"\(s)\" (one of: files, stdout)")
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
