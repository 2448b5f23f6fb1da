import FoundationEssentials
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The pinned font set: every test process that draws points fontconfig at the fixture before
/// the first Pango call (fontconfig reads its configuration once).
enum PinnedFonts {
    static let configured: Bool = {
        let file = #filePath
        let dir = String(file[..<file.lastIndex(of: "/")!])
        setenv("FONTCONFIG_FILE", dir + "/Fixtures/fonts.conf", 1)
        return true
    }()
}
