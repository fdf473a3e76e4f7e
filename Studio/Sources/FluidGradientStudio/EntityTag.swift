/// Entity tags (RFC 9110 section 8.8.3) as `If-None-Match` compares them.
enum EntityTag {
    /// Whether an `If-None-Match` header matches the strong tag `tag` (quotes included):
    /// `*`, or a list holding it. The comparison is the weak one the header uses, so
    /// `W/"x"` matches `"x"`.
    ///
    /// - Parameters:
    ///   - header: the header's value, nil when absent.
    ///   - tag: the representation's current tag, such as `"abc"`.
    /// - Returns: true when the client's copy is current.
    static func matches(_ header: String?, _ tag: String) -> Bool {
        guard let header else { return false }
        if header.utf8.count == tag.utf8.count { return header == tag }
        for candidate in header.split(separator: ",") {
            var candidate = candidate.trimmingPrefix(while: { $0 == " " || $0 == "\t" })
            while let last = candidate.last, last == " " || last == "\t" { candidate = candidate.dropLast() }
            if candidate == "*" { return true }
            if candidate.hasPrefix("W/") { candidate = candidate.dropFirst(2) }
            if candidate == tag { return true }
        }
        return false
    }
}
