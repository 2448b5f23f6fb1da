import Testing
@testable import WidgetGraphics

/// `GenerationalCache`, the text engine's bounded memo (issue 26: a ticking clock's one-off
/// time strings must neither grow memory nor push out the texts shown every frame).
@Suite struct GenerationalCacheTests {
    @Test func keepsWhatIsAskedForAgainWhileOneOffKeysPassThrough() {
        var cache = GenerationalCache<String, Int>(generationLimit: 8)
        cache.insert(1, for: "label")
        // A clock: a new key every "second", the label looked up every second too.
        for second in 0..<1000 {
            #expect(cache.value(for: "label") == 1, "the label was lost at second \(second)")
            if cache.value(for: "12:00:\(second)") == nil { cache.insert(second, for: "12:00:\(second)") }
            #expect(cache.count <= 16)
        }
        #expect(cache.value(for: "12:00:999") == 999)
    }

    @Test func dropsWhatWasNotAskedForWithinTwoGenerations() {
        var cache = GenerationalCache<Int, Int>(generationLimit: 4)
        cache.insert(-1, for: -1)
        for k in 0..<3 { cache.insert(k, for: k) }   // the first generation: -1, 0, 1, 2
        #expect(cache.value(for: -1) == -1)          // still in it
        for k in 3..<7 { cache.insert(k, for: k) }   // 3..6: a second generation; -1 is old
        #expect(cache.value(for: 0) == 0, "the old generation answers")
        for k in 7..<20 { cache.insert(k, for: k) }
        #expect(cache.value(for: -1) == nil)
        #expect(cache.value(for: 1) == nil)
        #expect(cache.value(for: 19) == 19)
        #expect(cache.count <= 8)
    }

    @Test func replacingAKeyDoesNotStartAGeneration() {
        var cache = GenerationalCache<Int, String>(generationLimit: 2)
        cache.insert("a", for: 1)
        cache.insert("b", for: 2)
        cache.insert("b2", for: 2)   // full, but the key is held: replaced in place
        #expect(cache.value(for: 1) == "a")
        #expect(cache.value(for: 2) == "b2")
        cache.removeAll()
        #expect(cache.count == 0)
        #expect(cache.value(for: 1) == nil)
    }
}
