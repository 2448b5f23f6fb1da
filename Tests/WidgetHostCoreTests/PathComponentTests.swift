import Testing
@testable import WidgetHostCore

/// The path helpers search bytes, not characters (issue 16): the same answers for ASCII,
/// non-ASCII and a "/" next to a combining mark.
@Suite struct PathComponentTests {
    @Test(arguments: [
        ("/a/b/c.txt", "c.txt", "/a/b/", "/a/b"),
        ("c.txt", "c.txt", "", "."),
        ("/c", "c", "/", "/"),
        ("/dossier/é\u{301}t\u{e9}/f\u{fc}r.json", "f\u{fc}r.json", "/dossier/é\u{301}t\u{e9}/", "/dossier/é\u{301}t\u{e9}"),
        ("a/\u{301}x", "\u{301}x", "a/", "a"),
        ("dir/", "", "dir/", "dir"),
    ])
    func components(path: String, last: String, prefix: String, parent: String) {
        #expect(path.lastPathComponent == last)
        #expect(path.dropLastPathComponentPrefix() == prefix)
        #expect(path.deletingLastPathComponent == parent)
    }
}
