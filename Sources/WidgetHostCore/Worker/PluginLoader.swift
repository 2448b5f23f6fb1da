import CWidgetPluginABI
import FoundationEssentials
import OpenWidgetKit
#if canImport(Glibc)
import Glibc
#endif

/// Why a plugin could not be loaded. `description` is the one line a user sees.
public struct PluginLoadError: Error, CustomStringConvertible, Sendable {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// A loaded plugin: its C table. Lives until the process exits (Swift code cannot be unloaded).
public struct LoadedPlugin: @unchecked Sendable {
    public let path: String
    let table: UnsafePointer<widget_plugin_v1>

    public var bundleId: String { table.pointee.bundle_id.map { String(cString: $0) } ?? "" }

    /// Calls the plugin's `invoke`. Not reentrant: one call at a time.
    public func invoke(_ request: Data) -> Data? {
        var out: UnsafeMutablePointer<UInt8>?
        var outLength = 0
        let status = request.withUnsafeBytes { raw in
            table.pointee.invoke(raw.bindMemory(to: UInt8.self).baseAddress, raw.count, &out, &outLength)
        }
        guard status == 0, let out else { return nil }
        defer { table.pointee.free_buffer(out) }
        return Data(bytes: out, count: outLength)
    }

    /// `invoke`, but a response over `limit` bytes is not copied (a copy could itself exhaust
    /// the worker's memory cap): returns its size in `tooLarge` instead.
    public func invoke(_ request: Data, limit: Int) -> (response: Data?, tooLarge: Int?) {
        var out: UnsafeMutablePointer<UInt8>?
        var outLength = 0
        let status = request.withUnsafeBytes { raw in
            table.pointee.invoke(raw.bindMemory(to: UInt8.self).baseAddress, raw.count, &out, &outLength)
        }
        guard status == 0, let out else { return (nil, nil) }
        defer { table.pointee.free_buffer(out) }
        if outLength > limit { return (nil, outLength) }
        return (Data(bytes: out, count: outLength), nil)
    }
}

/// Loads a plugin shared object in the current process — the worker's job; the host never
/// calls this. Checks the file before `dlopen` (mapping a truncated ELF can fault instead of
/// failing), then the entry symbol, the ABI version, the table size and the SDK version.
public enum PluginLoader {
    public static func load(path: String) -> Result<LoadedPlugin, PluginLoadError> {
        if let problem = ELFCheck.problem(path: path) { return .failure(PluginLoadError(problem)) }
        guard let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL) else {
            let reason = dlerror().map { String(cString: $0) } ?? "unknown error"
            return .failure(PluginLoadError("dlopen failed: \(reason)"))
        }
        guard let symbol = dlsym(handle, WIDGET_PLUGIN_ENTRY_SYMBOL) else {
            return .failure(PluginLoadError("does not export \(WIDGET_PLUGIN_ENTRY_SYMBOL): not a WidgetHost plugin, or built for another plugin ABI"))
        }
        let entry = unsafeBitCast(symbol, to: widget_plugin_entry_fn.self)
        guard let table = entry() else { return .failure(PluginLoadError("\(WIDGET_PLUGIN_ENTRY_SYMBOL) returned NULL (a Swift bundle marks its WidgetBundle or Widget with @main, or exports the entry line)")) }
        let abi = table.pointee.abi_version
        guard abi == WIDGET_PLUGIN_ABI_VERSION else {
            return .failure(PluginLoadError("plugin ABI version \(abi), this host speaks \(WIDGET_PLUGIN_ABI_VERSION): rebuild the plugin against this SDK"))
        }
        let size = Int(table.pointee.struct_size)
        guard size >= MemoryLayout<widget_plugin_v1>.size else {
            return .failure(PluginLoadError("plugin table is \(size) bytes, ABI \(abi) needs at least \(MemoryLayout<widget_plugin_v1>.size)"))
        }
        guard table.pointee.invoke != nil, table.pointee.free_buffer != nil else {
            return .failure(PluginLoadError("plugin table has a NULL invoke or free_buffer"))
        }
        let sdk = table.pointee.sdk_version.map { String(cString: $0) } ?? ""
        if !sdk.isEmpty && sdk != openWidgetKitVersion {
            return .failure(PluginLoadError("built with OpenWidgetKit \(sdk), this host has \(openWidgetKitVersion): rebuild the plugin with this toolchain and SDK (Swift has no stable ABI on Linux)"))
        }
        return .success(LoadedPlugin(path: path, table: table))
    }
}

/// Structural checks of an ELF shared object that `dlopen` would otherwise discover by crashing.
public enum ELFCheck {
    /// nil when the file looks like a complete 64-bit little-endian ELF shared object of this
    /// machine; otherwise the reason it is not.
    public static func problem(path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return "cannot open: \(String(cString: strerror(errno)))" }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { return "cannot stat: \(String(cString: strerror(errno)))" }
        guard (st.st_mode & S_IFMT) == S_IFREG else { return "not a regular file" }
        let size = Int(st.st_size)
        guard size >= 64 else { return size == 0 ? "empty file, not an ELF shared object" : "not an ELF file (\(size) bytes)" }
        var header = [UInt8](repeating: 0, count: 64)
        guard pread(fd, &header, 64, 0) == 64 else { return "cannot read the ELF header" }
        guard header[0] == 0x7f, header[1] == 0x45, header[2] == 0x4c, header[3] == 0x46 else { return "not an ELF file" }
        guard header[4] == 2, header[5] == 1 else { return "not a 64-bit little-endian ELF file" }
        func u16(_ o: Int) -> Int { Int(header[o]) | Int(header[o + 1]) << 8 }
        func u64(_ bytes: [UInt8], _ o: Int) -> Int {
            var v = 0
            for i in 0..<8 { v |= Int(bytes[o + i]) << (8 * i) }
            return v
        }
        guard u16(16) == 3 else { return "an ELF file but not a shared object (e_type \(u16(16)))" }
        #if arch(x86_64)
        guard u16(18) == 62 else { return "an ELF shared object for another machine (e_machine \(u16(18)))" }
        #elseif arch(arm64)
        guard u16(18) == 183 else { return "an ELF shared object for another machine (e_machine \(u16(18)))" }
        #endif
        let phoff = u64(header, 32), shoff = u64(header, 40)
        let phentsize = u16(54), phnum = u16(56), shentsize = u16(58), shnum = u16(60)
        guard phoff >= 0, phnum > 0, phentsize >= 56, phoff + phnum * phentsize <= size else {
            return "truncated ELF file: \(size) bytes, program headers end past it"
        }
        if shnum > 0 && shoff + shnum * shentsize > size {
            return "truncated ELF file: \(size) bytes, section headers at \(shoff) end at \(shoff + shnum * shentsize)"
        }
        var ph = [UInt8](repeating: 0, count: phnum * phentsize)
        guard pread(fd, &ph, ph.count, off_t(phoff)) == ph.count else { return "cannot read the program headers" }
        for i in 0..<phnum {
            let base = i * phentsize
            let type = Int(ph[base]) | Int(ph[base + 1]) << 8 | Int(ph[base + 2]) << 16 | Int(ph[base + 3]) << 24
            guard type == 1 else { continue } // PT_LOAD
            let offset = u64(ph, base + 8), fileSize = u64(ph, base + 32)
            if offset < 0 || fileSize < 0 || offset + fileSize > size {
                return "truncated ELF file: \(size) bytes, a loadable segment ends at \(offset + fileSize)"
            }
        }
        return nil
    }
}
