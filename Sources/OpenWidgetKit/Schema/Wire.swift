import FoundationEssentials

/// Version of this SDK, carried in every manifest; the host refuses a plugin built with another.
public let openWidgetKitVersion = "0.1.0"

/// The operations a plugin answers (DESIGN §4).
public enum WireOperation: String, Codable, Hashable, Sendable {
    case describe, placeholder, snapshot, timeline, perform
    /// The entries of one `#Preview` (`kind` is the preview's `id` from the manifest).
    case preview
}

/// One request from the host (through the worker) to a plugin.
public struct WireRequest: Codable, Hashable, Sendable {
    public var op: WireOperation
    /// Widget kind (all ops but `describe`).
    public var kind: String?
    public var family: WidgetFamily?
    /// Display size in points; defaults to the family's nominal size.
    public var displaySize: DisplaySize?
    /// Intent configuration (`AppIntentConfiguration` parameters) by parameter name.
    public var configuration: [String: JSONValue]?
    public var isPreview: Bool?
    /// The appearance the views are evaluated in (`@Environment(\.colorScheme)`); nil = `.light`.
    public var colorScheme: ColorScheme?
    /// The action to perform (`perform`).
    public var action: IntentAction?
    /// The rendering mode the views are evaluated in (`@Environment(\.widgetRenderingMode)`):
    /// `"accented"` (iOS 18's tinted Home Screen: `preview --tint`, the daemon's
    /// `picture.renderingMode`) or `"fullColor"`; nil = the family's own (`vibrant` for the
    /// accessory families, else `fullColor`). (Added in SDK 0.4; an older plugin ignores it.)
    public var renderingMode: String?

    public init(op: WireOperation, kind: String? = nil, family: WidgetFamily? = nil,
                displaySize: DisplaySize? = nil, configuration: [String: JSONValue]? = nil,
                isPreview: Bool? = nil, colorScheme: ColorScheme? = nil, action: IntentAction? = nil, renderingMode: String? = nil) {
        self.op = op; self.kind = kind; self.family = family; self.displaySize = displaySize
        self.configuration = configuration; self.isPreview = isPreview; self.colorScheme = colorScheme; self.action = action
        self.renderingMode = renderingMode
    }
}

/// `TimelineReloadPolicy` on the wire.
public struct WirePolicy: Codable, Hashable, Sendable {
    enum CodingKeys: String, CodingKey, CaseIterable { case type, date }

    /// `atEnd`, `after` or `never`.
    public var type: String
    public var date: Date?
    public init(type: String, date: Date? = nil) { self.type = type; self.date = date }
}

/// `TimelineEntryRelevance` on the wire.
public struct WireRelevance: Codable, Hashable, Sendable {
    enum CodingKeys: String, CodingKey, CaseIterable { case score, duration }

    public var score: Double
    /// Seconds the score holds for (0 = until the next entry).
    public var duration: Double
    public init(score: Double, duration: Double) { self.score = score; self.duration = duration }
}

/// One timeline entry, pre-rendered for the requested family.
public struct WireEntry: Codable, Hashable, Sendable {
    enum CodingKeys: String, CodingKey, CaseIterable { case date, relevance, view }

    public var date: Date
    public var relevance: WireRelevance?
    public var view: ViewNode
    public init(date: Date, relevance: WireRelevance? = nil, view: ViewNode) {
        self.date = date; self.relevance = relevance; self.view = view
    }
}

/// A parameter of a configurable widget (`@Parameter` of its `WidgetConfigurationIntent`).
public struct ParameterDescriptor: Codable, Hashable, Sendable {
    enum CodingKeys: String, CodingKey, CaseIterable { case name, title, type, defaultValue, options }

    public var name: String
    public var title: String
    /// `bool`, `int`, `double`, `string`, `enum`, `date`, `url`.
    public var type: String
    public var defaultValue: JSONValue?
    /// For `enum`: raw value → display title, in declaration order.
    public var options: [EnumOption]?
    public init(name: String, title: String, type: String, defaultValue: JSONValue? = nil, options: [EnumOption]? = nil) {
        self.name = name; self.title = title; self.type = type; self.defaultValue = defaultValue; self.options = options
    }
}

public struct EnumOption: Codable, Hashable, Sendable {
    enum CodingKeys: String, CodingKey, CaseIterable { case value, title }

    public var value: String
    public var title: String
    public init(value: String, title: String) { self.value = value; self.title = title }
}

/// One widget of a bundle, as `describe` reports it.
public struct WidgetDescriptor: Codable, Hashable, Sendable {
    enum CodingKeys: String, CodingKey, CaseIterable { case kind, displayName, description, families, parameters, configuration }

    public var kind: String
    public var displayName: String
    public var description: String
    public var families: [WidgetFamily]
    public var parameters: [ParameterDescriptor]
    /// `StaticConfiguration` or `AppIntentConfiguration`.
    public var configuration: String
    public init(kind: String, displayName: String, description: String, families: [WidgetFamily],
                parameters: [ParameterDescriptor], configuration: String) {
        self.kind = kind; self.displayName = displayName; self.description = description
        self.families = families; self.parameters = parameters; self.configuration = configuration
    }
}

/// What `describe` returns.
public struct BundleManifest: Codable, Hashable, Sendable {
    enum CodingKeys: String, CodingKey, CaseIterable { case bundleId, sdkVersion, abiVersion, widgets, appGroups, previews, permissions, filesystems, busNames, busSignals, systemBusNames }

    public var bundleId: String
    public var sdkVersion: String
    public var abiVersion: Int
    public var widgets: [WidgetDescriptor]
    /// App groups whose containers the bundle reads (`containers/<group>/`). Its sandboxed
    /// worker may read and write these containers and no other (docs/limits.md "Sandbox").
    public var appGroups: [String]
    /// The `#Preview`s the bundle declares (bundles that link `WidgetPreviews`), in symbol order.
    public var previews: [PreviewDescriptor]?
    /// What else the sandboxed worker may do: `"network"` (TCP connect and bind). Absent: nothing.
    public var permissions: [String]?
    /// Paths outside the containers the sandboxed worker may read, in Flatpak's `--filesystem`
    /// style, each ending in `:ro`: `~/x` (under `$HOME`), `xdg-data/x`, `xdg-config/x`,
    /// `xdg-cache/x`, or absolute (docs/limits.md "Sandbox", `WorkerSandbox.FilesystemGrant`).
    /// Absent: none. (SDK 0.6.)
    public var filesystems: [String]?
    /// The session-bus names the bundle talks to (Flatpak's `--talk-name`; a trailing `.*`
    /// matches a name and those beneath it, as xdg-dbus-proxy reads it): its sandboxed worker
    /// reaches the session bus only through an `xdg-dbus-proxy` filtered to these
    /// (docs/limits.md "D-Bus"; checked by `BusNameRule`). Absent: no bus.
    public var busNames: [String]?
    /// The session-bus signals that reload the bundle's timelines: the host watches them on its
    /// own connection (a match rule each), so a resting worker wakes only when its data changed.
    public var busSignals: [BusSignal]?
    /// The system-bus names the bundle talks to (Flatpak's `--system-talk-name`; the same rules
    /// as `busNames`): its worker reaches the system bus only through a second `xdg-dbus-proxy`
    /// filtered to these (docs/limits.md "D-Bus"). Absent: no system bus.
    public var systemBusNames: [String]?
    public init(bundleId: String, sdkVersion: String, abiVersion: Int, widgets: [WidgetDescriptor], appGroups: [String],
                previews: [PreviewDescriptor]? = nil, permissions: [String]? = nil, filesystems: [String]? = nil,
                busNames: [String]? = nil, busSignals: [BusSignal]? = nil, systemBusNames: [String]? = nil) {
        self.bundleId = bundleId; self.sdkVersion = sdkVersion; self.abiVersion = abiVersion
        self.widgets = widgets; self.appGroups = appGroups; self.previews = previews; self.permissions = permissions
        self.filesystems = filesystems; self.busNames = busNames; self.busSignals = busSignals; self.systemBusNames = systemBusNames
    }
}

/// A bus signal a bundle reloads on (`BundleManifest.busSignals`): from `sender` (one of its
/// declared bus names; a wildcard name matches any sender), of `interface.member`, at `path`
/// when given — e.g. MPRIS's `org.freedesktop.DBus.Properties.PropertiesChanged` at
/// `/org/mpris/MediaPlayer2`. `bus`: `"system"` for a signal on the system bus (its sender then
/// one of `systemBusNames`, e.g. UPower's `DeviceAdded`); absent: the session bus.
public struct BusSignal: Codable, Hashable, Sendable {
    enum CodingKeys: String, CodingKey, CaseIterable { case sender, interface, member, path, bus }

    public var sender: String
    public var interface: String
    public var member: String
    public var path: String?
    /// `"system"`, or nil for the session bus (any other value: the host ignores the signal).
    public var bus: String?
    public init(sender: String, interface: String, member: String, path: String? = nil, bus: String? = nil) {
        self.sender = sender; self.interface = interface; self.member = member; self.path = path; self.bus = bus
    }
}

/// One `#Preview`: `id` to ask for it (`op: preview`, `kind: id`), its name (the macro's first
/// argument, or the widget's kind), the widget kind and family of a widget preview (nil for a
/// plain view preview).
public struct PreviewDescriptor: Codable, Hashable, Sendable {
    enum CodingKeys: String, CodingKey, CaseIterable { case id, name, kind, family }

    public var id: String
    public var name: String
    public var kind: String?
    public var family: WidgetFamily?
    public init(id: String, name: String, kind: String?, family: WidgetFamily?) {
        self.id = id; self.name = name; self.kind = kind; self.family = family
    }
}

/// A plugin's answer. `ok == false` carries `error`; otherwise the field of the op is set.
public struct WireResponse: Codable, Hashable, Sendable {
    enum CodingKeys: String, CodingKey, CaseIterable { case ok, error, manifest, entries, policy, reloadRequests, missingResources }

    public var ok: Bool
    public var error: String?
    public var manifest: BundleManifest?
    /// `placeholder` and `snapshot` return one entry; `timeline` one or more.
    public var entries: [WireEntry]?
    public var policy: WirePolicy?
    /// Kinds the plugin asked to reload during the call (`WidgetCenter`); `"*"` means all.
    public var reloadRequests: [String]?
    /// The bundle's colours, images and strings the call asked for and did not find
    /// (`ResourceMisses`: `color "Brand"`, `image "Logo"`, `string "key" (de)`). (SDK 0.5.)
    public var missingResources: [String]?

    public init(ok: Bool, error: String? = nil, manifest: BundleManifest? = nil, entries: [WireEntry]? = nil,
                policy: WirePolicy? = nil, reloadRequests: [String]? = nil, missingResources: [String]? = nil) {
        self.ok = ok; self.error = error; self.manifest = manifest; self.entries = entries
        self.policy = policy; self.reloadRequests = reloadRequests; self.missingResources = missingResources
    }

    public static func failure(_ message: String) -> WireResponse { WireResponse(ok: false, error: message) }
}

/// The JSON codec both sides of the boundary use: sorted keys, dates as seconds since 1970,
/// infinities as `"inf"`/`"-inf"`. Encoders are created per call (they are not thread-safe to share).
public enum WireCodec {
    public static func encoder() -> JSONEncoder {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        e.dateEncodingStrategy = .secondsSince1970
        e.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return e
    }

    public static func decoder() -> JSONDecoder {
        let d = JSONDecoder()
        d.dateDecodingStrategy = .secondsSince1970
        d.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return d
    }

    public static func encode<T: Encodable>(_ value: T) throws -> Data { try encoder().encode(value) }

    /// A request's bytes, written directly (`WireJSONWriter`): the same bytes as `encode`, without
    /// `JSONEncoder`, whose first use in a process instantiates its generic machinery (1.5 M
    /// instructions of a host's cold start, issue 16).
    public static func encodeRequest(_ request: WireRequest) -> Data {
        var w = WireJSONWriter(capacity: 64)
        w.value(request)
        return w.data
    }
    public static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T { try decoder().decode(type, from: data) }

    /// A plugin's answer, read directly (`WireJSONReader`) and, when that reader declines
    /// (anything malformed or unusual), by `JSONDecoder`: the same value
    /// either way, and `JSONDecoder`'s error for what is invalid. Either way its numbers are then
    /// checked (`WireValidation`): a date of `"nan"` throws `WireValidationError` here, at the
    /// boundary, instead of trapping the host where the date is first used.
    public static func decodeResponse(_ data: Data) throws -> WireResponse {
        let r = try (try? WireJSONReader.response(from: data)) ?? decode(WireResponse.self, from: data)
        if let problem = WireValidation.problem(in: r) { throw WireValidationError(problem) }
        return r
    }

    /// A JSON document as a `JSONValue` (the host's `config.json`), read directly
    /// (`WireJSONReader`) and, when that reader declines (malformed input, a UTF-16 file, a
    /// number out of range, nesting deeper than 512), by `JSONDecoder`: the same value either
    /// way, and `JSONDecoder`'s error for what is invalid. `JSONDecoder` was a tenth of a
    /// daemon's start-up instructions (issue 16).
    public static func decodeJSONValue(_ data: Data) throws -> JSONValue {
        if let v = try? WireJSONReader.value(from: data) { return v }
        return try decode(JSONValue.self, from: data)
    }

    /// `decodeResponse` for the next answer to a request answered before (`earlier`): every
    /// entry whose bytes are also an entry of `earlier` is taken from it instead of decoded and
    /// validated again. A timeline that starts a second later shares all its entries but its
    /// ends with the one before: a clock's 60 entries asked again by a container change cost one
    /// `memcmp` each (issue 16). The response is the one `decodeResponse` gives (equal bytes read
    /// at the same place decode to equal entries; only the entries decoded now can hold a bad
    /// number). Falls back to `decodeResponse` (nothing taken) where the direct reader declines.
    public static func readAnswer(_ data: Data, after earlier: WireAnswer?) throws -> WireAnswer {
        let read = try? WireJSONReader.answer(from: data, earlierBytes: earlier?.bytes, ranges: earlier?.entryRanges ?? [],
                                               entries: earlier?.response.entries ?? [])
        guard let read else { return WireAnswer(bytes: data, response: try decodeResponse(data), entryRanges: [], takenEntries: 0) }
        let r = read.response
        if let problem = WireValidation.problem(in: r, skipping: read.taken) { throw WireValidationError(problem) }
        return WireAnswer(bytes: data, response: r, entryRanges: read.ranges, takenEntries: read.taken.count { $0 })
    }

    /// A flat JSON object of the host's own state that embeds wire types (a saved timeline),
    /// read directly; nil when the direct reader declines it (the caller then asks
    /// `JSONDecoder`, for the same value or its error). `JSONDecoder` spent ~0.5 M instructions
    /// on a 60-entry saved timeline at every start (issue 16). Numbers are not validated here.
    public static func decodeRecordFields(_ data: Data) -> WireRecordFields? {
        try? WireJSONReader.recordFields(from: data)
    }

    /// One line of the host's desktop view stream (without its `\n`), read directly; nil where
    /// the direct reader declines (the caller then asks `JSONDecoder` for its verdict).
    public static func decodeViewStreamFields(_ data: Data) -> WireViewStreamFields? {
        try? WireJSONReader.viewStreamFields(from: data)
    }
}

/// A plugin's answer as read by `WireCodec.readAnswer`: its bytes, the response, and where each
/// entry is in the bytes, so that the next answer to the same request can take the entries it
/// shares with this one instead of decoding them. Value type.
public struct WireAnswer: Sendable {
    public let bytes: Data
    public let response: WireResponse
    /// Each entry's bytes in `bytes` (empty when the answer was read by `JSONDecoder`).
    let entryRanges: [Range<Int>]
    /// Entries taken from the earlier answer, not decoded (for tests and benchmarks).
    public let takenEntries: Int
}
