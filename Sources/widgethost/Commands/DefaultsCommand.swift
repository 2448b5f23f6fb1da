import ArgumentParser
import FoundationEssentials
import OpenWidgetKit
import WidgetHostCore
#if canImport(Glibc)
import Glibc
#endif

/// `widgethost defaults read|write|delete <group> [key] [value]`: edits an app group's
/// `SharedDefaults` the way `defaults(1)` edits a domain — atomically and under the container's
/// lock, so an app, a script and a plugin never lose each other's writes. It runs unsandboxed in
/// a folder a plugin writes: no file there is followed as a link (`SharedDefaults`).
struct DefaultsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "defaults",
        abstract: "Read and write an app group's shared defaults (containers/<group>/defaults.json).",
        discussion: """
        An app group's SharedDefaults (UserDefaults(suiteName:) of a widget) live in \
        <paths.containers>/<group>/defaults.json: one flat JSON object, key → value \
        ({"count": 7}). The host reloads the group's widgets when it changes. Use the same \
        --config as the host and `preview`, or they read different containers. \
        See docs/plugin-authoring.md.
        """,
        subcommands: [Read.self, Write.self, Delete.self]
    )

    struct Location: ParsableArguments {
        @Option(help: "The config file whose paths.containers to use (default: $XDG_CONFIG_HOME/widgethost/config.json when it exists, else built-in defaults).")
        var config: String?
        @Option(help: "The containers root (overrides the config).")
        var containers: String?

        /// Points `SharedDefaults` at the right containers root.
        func apply() throws {
            var root = containers
            if root == nil {
                let source = ConfigSource(explicitPath: config)
                if source.path != nil {
                    switch source.load() {
                    case .success(let c): root = c.paths.containers
                    case .failure(let e): throw ValidationError("invalid configuration: \(e)")
                    }
                }
            }
            if let root { setenv("WIDGETHOST_CONTAINERS", ConfigSource.absolute(root), 1) }
        }

        func open(_ group: String) throws -> SharedDefaults {
            try apply()
            guard let d = SharedDefaults(suiteName: group) else {
                throw ValidationError("invalid group id \"\(group)\" (1–128 characters of A–Z a–z 0–9 . _ -)")
            }
            return d
        }
    }

    struct Read: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print one key's value, or every key as JSON.")
        @OptionGroup var location: Location
        @Argument var group: String
        @Argument var key: String?
        func run() throws {
            let d = try location.open(group)
            // A file a plugin planted (a link, a FIFO) is refused, with the reason, never followed.
            let values: [String: JSONValue]
            switch d.stored() {
            case .values(let v): values = v
            case .unusable(let why): throw ValidationError(why)
            }
            if let key {
                guard let v = values[key] else { throw ValidationError("no key \"\(key)\" in \(group)") }
                if case .string(let s) = v { print(s) } else { print(String(decoding: try WireCodec.encode(v), as: UTF8.self)) }
            } else {
                print(String(decoding: try WireCodec.encode(values), as: UTF8.self))
            }
        }
    }

    struct Write: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Set a key. The value is taken as JSON when it parses (6, true, [1,2], \"x\"), else as a string.")
        @OptionGroup var location: Location
        @Argument var group: String
        @Argument var key: String
        @Argument var value: String
        func run() throws {
            let d = try location.open(group)
            let parsed = (try? WireCodec.decode(JSONValue.self, from: Data(value.utf8))) ?? .string(value)
            try d.commit { $0[key] = parsed }
        }
    }

    struct Delete: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove a key.")
        @OptionGroup var location: Location
        @Argument var group: String
        @Argument var key: String
        func run() throws { try location.open(group).commit { $0[key] = nil } }
    }
}
