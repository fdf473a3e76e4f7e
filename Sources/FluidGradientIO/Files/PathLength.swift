import Foundation

/// Why the system will not look a path up for its length, after "cannot read PATH: " or
/// "cannot write PATH: ".
package let pathTooLong =
    "path too long: at most \(PATH_MAX) bytes in all, and \(NAME_MAX) in each name; choose a shorter path"

/// ``pathTooLong`` when the system refuses to look `path` up because it is too long
/// (`ENAMETOOLONG`), so that it is not called missing; nil otherwise.
///
/// - Parameter path: a path that could not be found or opened.
/// - Returns: the reason, or nil when the path's length is not the problem.
package func lengthProblem(_ path: String) -> String? {
    var info = stat()
    return lstat(path, &info) != 0 && errno == ENAMETOOLONG ? pathTooLong : nil
}
