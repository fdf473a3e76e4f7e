@preconcurrency import Glibc

/// C's `stdout`, which `print` writes through: a mutable C global, read here only at exit,
/// when no other thread prints.
func standardOutputStream() -> UnsafeMutablePointer<FILE> { stdout }
