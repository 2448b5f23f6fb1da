import FoundationEssentials
import OpenWidgetKit
import WidgetHostCore

/// Applies `ConfigEdit`s to the text of a `config.json`, changing only the bytes each edit must
/// change, and refuses any result the host's own parser (`ConfigParser.check`) would refuse.
/// Pure: it reads no file (`ConfigFileEditor` does the I/O and the locking); the bundles come
/// from a `WidgetCatalog`, asked only when an edit needs them. Value type; one thread at a time.
///
/// A config without a `widgets` list runs every kind of every bundle in every family; an edit
/// of the list first writes out that implicit list (the instances the host runs now, with their
/// ids), so nothing that ran disappears.
public struct ConfigEditor {
    public private(set) var text: ConfigText
    /// The configuration `text` parses to.
    public private(set) var config: HostConfig
    public let baseDirectory: String
    public let environment: [String: String]
    public let catalog: any WidgetCatalog

    /// - Parameters:
    ///   - bytes: the file's contents; a config the host refuses is refused here, with its first error.
    ///   - baseDirectory: the file's directory (relative paths resolve against it).
    public init(bytes: [UInt8], baseDirectory: String, environment: [String: String], catalog: any WidgetCatalog) throws {
        self.baseDirectory = baseDirectory
        self.environment = environment
        self.catalog = catalog
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x0a || $0 == 0x0d || $0 == 0x09 }) {
            throw ConfigEditError("the file is empty, which the host refuses (write {} for every default)")
        }
        let checked = ConfigParser.check(Data(bytes), baseDirectory: baseDirectory, environment: environment)
        if let first = checked.errors.first {
            let more = checked.errors.count > 1 ? " and \(checked.errors.count - 1) more (widgethost validate lists them)" : ""
            throw ConfigEditError("the config has errors already, fix them first: \(first)\(more)")
        }
        config = checked.config
        text = try ConfigText(bytes)
    }

    /// Applies `edit`; returns the id of the widget it concerns (the new id for `add`).
    /// A refused edit leaves the editor as it was.
    @discardableResult
    public mutating func apply(_ edit: ConfigEdit) throws -> String {
        let before = self
        do { return try applyOrLeaveHalfDone(edit) } catch {
            self = before
            throw error
        }
    }

    private mutating func applyOrLeaveHalfDone(_ edit: ConfigEdit) throws -> String {
        switch edit {
        case .add(let p): return try add(p)
        case .remove(let id): try remove(id); return id
        case .configure(let id, let parameters): try configure(id, parameters); return id
        case .move(let id, let to): try move(id, to: to); return id
        }
    }

    // MARK: - the edits

    private mutating func add(_ p: WidgetPlacement) throws -> String {
        let (bundle, widget) = try catalog.resolve(kind: p.kind, bundle: p.bundle)
        guard let family = WidgetFamily(rawValue: p.family) else {
            throw ConfigEditError("unknown family \"\(p.family)\" (\(p.kind) supports: \(Self.families(widget)))")
        }
        guard widget.families.contains(family) else {
            throw ConfigEditError("\(p.kind) does not support \(family.rawValue) (it supports: \(Self.families(widget)))")
        }
        let parameters = try Self.values(p.parameters, of: widget).uniqued()
        var outputs: [HostConfig.Output]? = nil
        if let names = p.outputs {
            outputs = try names.map { (name: String) throws -> HostConfig.Output in
                guard let o = HostConfig.Output(rawValue: name) else {
                    throw ConfigEditError("unknown output \"\(name)\" (one of: \(HostConfig.Output.allCases.map(\.rawValue).joined(separator: ", ")))")
                }
                return o
            }
        }
        try ensureWidgetList()
        let taken = Set((config.widgets ?? []).map(\.id))
        let derived = WidgetID.derived(kind: p.kind, family: family)
        let id: String
        if let wanted = p.id {
            guard !wanted.isEmpty else { throw ConfigEditError("the id must not be empty") }
            id = WidgetID.sanitize(wanted)
            guard !taken.contains(id) else { throw ConfigEditError("a widget with id \"\(id)\" exists already (ids must be unique: choose another)") }
        } else {
            var candidate = derived, n = 2
            while taken.contains(candidate) { candidate = "\(derived)-\(n)"; n += 1 }
            id = candidate
        }
        var members: [(String, String)] = [("kind", JSONText.string(p.kind)), ("family", JSONText.string(family.rawValue))]
        if id != derived { members.append(("id", JSONText.string(id))) }
        if let b = p.bundle { members.append(("bundle", JSONText.string(b == bundle.manifest.bundleId ? b : bundle.fileName))) }
        if !parameters.isEmpty { members.append(("parameters", JSONText.object(parameters))) }
        if let outputs {
            let list = JSONValue.array(outputs.map { .string($0.rawValue) })
            members.append(("outputs", JSONText.value(list)))
        }
        // Into an empty list: on a line of its own when the file is laid out on lines.
        try text.appendElement(to: [.key("widgets")], elementText: entryText(members), multiline: text.isMultiline(text.root))
        // A picture widget joins the desktop's list when there is one (without a list the
        // desktop shows every picture in out/).
        if (outputs ?? config.defaults.outputs).contains(.png), let list = text.value(at: Self.desktopList), !list.elements.isEmpty {
            try text.appendElement(to: Self.desktopList, elementText: JSONText.string(id))
        }
        try commit()
        return id
    }

    private mutating func remove(_ id: String) throws {
        try ensureWidgetList()
        let index = try widgetIndex(id)
        try text.removeElement(from: [.key("widgets")], index: index)
        if let at = text.value(at: Self.desktopList)?.elements.firstIndex(where: { $0.stringValue == id }) {
            try text.removeElement(from: Self.desktopList, index: at)
        }
        // Its monitor too: the host refuses a desktop.outputs key that names no widget.
        if text.value(at: Self.desktopOutputs)?.member(id) != nil {
            try text.removeMember(from: Self.desktopOutputs, key: id)
        }
        try commit()
    }

    private mutating func configure(_ id: String, _ assignments: [ParameterAssignment]) throws {
        guard !assignments.isEmpty else { throw ConfigEditError("no parameters given (NAME=VALUE…)") }
        try ensureWidgetList()
        let index = try widgetIndex(id)
        let entry = config.widgets![index]
        let (_, widget) = try catalog.resolve(kind: entry.kind, bundle: entry.bundle)
        let values = try Self.values(assignments, of: widget).uniqued()
        let entryPath: [JSONPathStep] = [.key("widgets"), .index(index)]
        let parametersPath = entryPath + [.key("parameters")]
        if text.value(at: parametersPath) == nil {
            try text.appendMember(to: entryPath, key: "parameters", valueText: JSONText.object(values))
        } else {
            for (k, v) in values {
                if text.value(at: parametersPath + [.key(k)]) != nil {
                    try text.replaceValue(at: parametersPath + [.key(k)], with: JSONText.value(v))
                } else {
                    try text.appendMember(to: parametersPath, key: k, valueText: JSONText.value(v))
                }
            }
        }
        try commit()
    }

    private mutating func move(_ id: String, to destination: GridDestination) throws {
        var order: [String]
        if let list = text.value(at: Self.desktopList), !list.elements.isEmpty {
            order = list.elements.compactMap(\.stringValue)
        } else {
            // The desktop shows every widget with a picture, by id: that order, written out.
            order = try instances().filter { $0.outputs.contains(.png) }.map(\.id).sorted()
            guard order.contains(id) else { throw try notOnDesktop(id, grid: order) }
            let listText = JSONText.value(.array(order.map { .string($0) }))
            if text.value(at: Self.desktopList) != nil {
                try text.replaceValue(at: Self.desktopList, with: listText)
            } else if text.value(at: [.key("desktop")]) != nil {
                try text.appendMember(to: [.key("desktop")], key: "widgets", valueText: listText)
            } else {
                try text.appendMember(to: [], key: "desktop", valueText: "{ \"widgets\": \(listText) }", multiline: true)
            }
        }
        guard let from = order.firstIndex(of: id) else { throw try notOnDesktop(id, grid: order) }
        var rest = order
        rest.remove(at: from)
        let to: Int
        switch destination {
        case .before(let other):
            guard other != id else { throw ConfigEditError("cannot move \(id) before itself") }
            guard let i = rest.firstIndex(of: other) else {
                throw ConfigEditError("no widget \"\(other)\" in the desktop grid (its order: \(order.joined(separator: ", ")))")
            }
            to = i
        case .position(let n):
            guard (0..<order.count).contains(n) else {
                throw ConfigEditError("position \(n + 1) is outside the desktop grid (1–\(order.count): \(order.joined(separator: ", ")))")
            }
            to = n
        }
        rest.insert(id, at: to)
        try text.reorderElements(of: Self.desktopList, order: rest.map { order.firstIndex(of: $0)! })
        try commit()
    }

    // MARK: - helpers

    static let desktopList: [JSONPathStep] = [.key("desktop"), .key("widgets")]
    static let desktopOutputs: [JSONPathStep] = [.key("desktop"), .key("outputs")]

    /// The instances the config runs: its list, or every kind × family of the installed bundles.
    public func instances() throws -> [(id: String, outputs: [HostConfig.Output])] {
        if let widgets = config.widgets { return widgets.map { ($0.id, $0.outputs) } }
        return try plannedImplicitInstances().map { ($0.id, $0.outputs) }
    }

    private func plannedImplicitInstances() throws -> [InstanceSpec] {
        let bundles = try catalog.installedBundles()
        var implicit = config
        implicit.widgets = nil
        return WidgetInstancePlanner.plan(config: implicit, bundles: bundles.map(\.manifest), bundleNames: bundles.map(\.fileName)).instances
    }

    private func notOnDesktop(_ id: String, grid: [String]) throws -> ConfigEditError {
        let known = try instances().contains { $0.id == id }
        guard known else { return ConfigEditError("no widget \"\(id)\" in the config (ids: \(try instances().map(\.id).joined(separator: ", ")))") }
        let shown = grid.isEmpty ? "no widget has one" : "the grid: \(grid.joined(separator: ", "))"
        return ConfigEditError("\(id) is not on the desktop: it has no png output (\(shown))")
    }

    private func widgetIndex(_ id: String) throws -> Int {
        let widgets = config.widgets ?? []
        guard let i = widgets.firstIndex(where: { $0.id == id }) else {
            throw ConfigEditError("no widget \"\(id)\" in the config (ids: \(widgets.map(\.id).joined(separator: ", ")))")
        }
        return i
    }

    /// Writes the implicit list (every kind × family of the installed bundles, the ids the host
    /// gives them) when the config has none.
    private mutating func ensureWidgetList() throws {
        guard config.widgets == nil else { return }
        let planned = try plannedImplicitInstances()
        let bundles = try catalog.installedBundles()
        let declaring = Dictionary(grouping: bundles.flatMap { b in b.manifest.widgets.map { ($0.kind, b.fileName) } }, by: { $0.0 })
        let entries = planned.map { spec -> String in
            var members: [(String, JSONValue)] = [("kind", .string(spec.kind)), ("family", .string(spec.family.rawValue))]
            if spec.id != WidgetID.derived(kind: spec.kind, family: spec.family) { members.append(("id", .string(spec.id))) }
            if (declaring[spec.kind]?.count ?? 0) > 1 { members.append(("bundle", .string(spec.bundleName))) }
            return JSONText.object(members)
        }
        let root = text.root
        let indent = root.members.last.map { text.lineIndent(at: $0.keyRange.lowerBound) } ?? text.indentUnit
        let inner = indent + text.indentUnit
        let list = entries.isEmpty ? "[]" : "[\n" + inner + entries.joined(separator: ",\n" + inner) + "\n" + indent + "]"
        if root.member("widgets") != nil {
            try text.replaceValue(at: [.key("widgets")], with: list)
        } else {
            try text.appendMember(to: [], key: "widgets", valueText: list, multiline: true)
        }
        try commit()
    }

    /// A new `widgets` entry written as its neighbours are: the spacing inside the braces,
    /// around the colons and between members copied from the last entry (one line, like the
    /// shipped config's, when there is none).
    private func entryText(_ members: [(key: String, valueText: String)]) -> String {
        var open = " ", colon = ": ", separator = ", ", close = " "
        if let sample = text.value(at: [.key("widgets")])?.elements.last(where: \.isObject), let first = sample.members.first, let last = sample.members.last {
            open = text.slice(sample.range.lowerBound + 1..<first.keyRange.lowerBound)
            colon = text.slice(first.keyRange.upperBound..<first.value.range.lowerBound)
            close = text.slice(last.value.range.upperBound..<sample.range.upperBound - 1)
            separator = sample.members.count >= 2
                ? text.slice(first.value.range.upperBound..<sample.members[1].keyRange.lowerBound) : "," + open
        }
        return "{" + open + members.map { JSONText.string($0.key) + colon + $0.valueText }.joined(separator: separator) + close + "}"
    }

    /// Each assignment read and checked against `widget`'s parameters (the last of a name wins).
    static func values(_ assignments: [ParameterAssignment], of widget: WidgetDescriptor) throws -> [(String, JSONValue)] {
        try assignments.map { a in
            switch a.value {
            case .text(let t): return (a.name, try ParameterValues.value(a.name, text: t, of: widget))
            case .value(let v): return (a.name, try ParameterValues.checked(v, name: a.name, of: widget))
            }
        }
    }

    static func families(_ w: WidgetDescriptor) -> String { w.families.map(\.rawValue).joined(separator: ", ") }

    /// Re-reads the edited text with the host's parser: an edit that would leave a config the
    /// host refuses is refused.
    private mutating func commit() throws {
        let checked = ConfigParser.check(Data(text.bytes), baseDirectory: baseDirectory, environment: environment)
        if let first = checked.errors.first { throw ConfigEditError("the edit would leave a config the host refuses (\(first)): not written") }
        config = checked.config
    }
}

extension Array where Element == (String, JSONValue) {
    /// The pairs with each key once, at its first place, holding its last value.
    func uniqued() -> [(String, JSONValue)] {
        var out: [(String, JSONValue)] = []
        for (k, v) in self { if let i = out.firstIndex(where: { $0.0 == k }) { out[i].1 = v } else { out.append((k, v)) } }
        return out
    }
}
