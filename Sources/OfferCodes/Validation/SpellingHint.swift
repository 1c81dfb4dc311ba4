/// Finds the name someone probably meant: for unknown members and invalid enum values.
enum SpellingHint {
    /// The candidate closest to `word`, when it is close enough to be a likely typo: the same
    /// apart from case, `_`, `-` and spaces; within a few edits; or a clear abbreviation.
    static func closest(to word: String, among candidates: [String]) -> String? {
        let target = normalized(word)
        guard !target.isEmpty else { return nil }
        var best: (candidate: String, distance: Int)?
        for candidate in candidates {
            let other = normalized(candidate)
            let distance: Int
            if other == target {
                distance = 0
            } else if min(target.count, other.count) >= 5, other.starts(with: target) || target.starts(with: other) {
                distance = 1
            } else {
                distance = editDistance(target, other)
                guard distance <= allowedEdits(for: target.count) else { continue }
            }
            if best == nil || distance < best!.distance { best = (candidate, distance) }
        }
        return best?.candidate
    }

    /// `; did you mean "X"?` when a candidate is close, otherwise `otherwise`.
    static func suffix(for word: String, among candidates: [String], otherwise: String = "") -> String {
        closest(to: word, among: candidates).map { "; did you mean \"\($0)\"?" } ?? otherwise
    }

    private static func normalized(_ word: String) -> [Character] {
        Array(word.lowercased().filter { $0 != "_" && $0 != "-" && $0 != " " })
    }

    private static func allowedEdits(for length: Int) -> Int {
        switch length {
        case ..<4: 1
        case ..<9: 2
        default: 3
        }
    }

    /// Levenshtein distance (insertions, deletions, substitutions).
    private static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
