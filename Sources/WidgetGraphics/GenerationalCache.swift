/// A memo of at most `2 × generationLimit` answers that keeps the ones still asked for.
///
/// Answers go into the current generation; when it holds `generationLimit`, it becomes the old
/// one (the older is dropped) and a new one starts. An answer found in the old generation is
/// moved to the current one, so what is asked for at least once per generation (a widget's
/// label, a date shown all day) stays however many one-off keys pass through (a clock's new
/// time string each second, about nine sizes of it per `minimumScaleFactor` search). Emptying
/// the whole memo when full, as before, kept the hash table's high-water mark of 4 096 entries
/// (about 1 MB, reached after ~7 minutes of a ticking clock: the one-time RSS step of the hour
/// run in docs/performance.md) and lost the repeated texts with the one-off ones.
///
/// Contract: `value(for:)` returns what `insert` stored for an equal key unless at least
/// `generationLimit` other keys were inserted since it was last stored or found. Threading:
/// a value type, used by one thread (its owner's).
struct GenerationalCache<Key: Hashable, Value> {
    let generationLimit: Int
    private var current: [Key: Value] = [:]
    private var old: [Key: Value] = [:]

    init(generationLimit: Int) {
        precondition(generationLimit > 0, "a generation holds at least one answer")
        self.generationLimit = generationLimit
    }

    /// Answers held (both generations).
    var count: Int { current.count + old.count }

    /// The stored answer for `key`, if kept; one found in the old generation moves to the
    /// current one.
    mutating func value(for key: Key) -> Value? {
        if let v = current[key] { return v }
        guard let v = old.removeValue(forKey: key) else { return nil }
        insert(v, for: key)
        return v
    }

    /// Stores `value` for `key` in the current generation, starting a new one first when full.
    mutating func insert(_ value: Value, for key: Key) {
        if current.count >= generationLimit, current[key] == nil {
            old = current
            current = Dictionary(minimumCapacity: generationLimit)
        }
        current[key] = value
    }

    /// Forgets every answer (and the tables' storage).
    mutating func removeAll() {
        current = [:]
        old = [:]
    }
}
