extension StringProtocol {
    /// Trims leading and trailing characters made only of the scalars in `set`. Compares
    /// scalars, not `Character`s: in a literal such as `" \t\r\n"`, `"\r\n"` is one
    /// `Character`, so a lone `"\n"` would otherwise not be trimmed.
    func trimmingCharacters(in set: String) -> String {
        let scalars = Set(set.unicodeScalars)
        let trimmed: (Character) -> Bool = { $0.unicodeScalars.allSatisfy(scalars.contains) }
        guard let start = firstIndex(where: { !trimmed($0) }), let end = lastIndex(where: { !trimmed($0) }) else {
            return ""
        }
        return String(self[start...end])
    }
}
