import Foundation

/// Why the system will not look a path up for its length, after "cannot read PATH: " or
/// "cannot write PATH: ".
let pathTooLongReason =
    "path too long: at most \(PATH_MAX) bytes in all, and \(NAME_MAX) in each name; choose a shorter path"

/// Whether the system refuses to look `path` up because it is too long (`ENAMETOOLONG`),
/// so that it is not called missing.
///
/// - Parameter path: a path that could not be found or opened.
/// - Returns: true when the path's length is the problem.
func isTooLong(_ path: String) -> Bool {
    var info = stat()
    return lstat(path, &info) != 0 && errno == ENAMETOOLONG
}
