import FoundationEssentials
import Synchronization

/// Names a bundle asked for and did not find — `Color("Brand")`, `Image("Logo")`, `Text("key")`
/// with no such colour, image or string — as `color "Brand"`, `image "Logo"`,
/// `string "key" (de)`. `PluginRuntime` takes them after each call and sends them in the answer
/// (`WireResponse.missingResources`), so `preview` and `validate` can name each on one line, as
/// Xcode's console does on iOS ("No color named 'Brand' found in asset catalog").
///
/// A key not found is a miss only when the bundle has string tables (a bundle with none shows
/// its keys, as an iOS app without `Localizable.strings` does, and nothing is missing).
/// Threading: a mutex; safe from any thread.
public enum ResourceMisses {
    private static let pending = Mutex<[String]>([])

    /// Records one miss (each name once per call).
    static func record(_ what: String) {
        pending.withLock { if !$0.contains(what) { $0.append(what) } }
    }

    /// The misses recorded since the last call, in the order they happened; clears them.
    public static func take() -> [String] {
        pending.withLock { list in
            defer { list = [] }
            return list
        }
    }
}
