#!/usr/bin/env python3
"""Checks the layout rules of CONTRIBUTING.md on Swift sources.

Usage: Scripts/check-layout.py [DIR ...]   (default: Sources)

Reports every file over 400 lines and every function, initializer, subscript
or closure-free accessor body over 60 lines, and exits 1 if there is one.
Lines over 120 columns are swift format's to report (.swift-format).
"""
import os
import re
import sys

MOST_FILE_LINES, MOST_FUNCTION_LINES = 400, 60
DECLARATION = re.compile(r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|private|fileprivate|static|"
                         r"class|final|override|mutating|nonmutating|nonisolated|convenience|required|"
                         r"@inlinable|@usableFromInline|@inline\(__always\))\s+)*(?:func\s+\S+|init[?!]?\s*[(<]|"
                         r"subscript\s*[(<]|deinit\b)")


def code_only(lines):
    """The lines with comments and string literals blanked, so braces count."""
    in_block, in_multiline, result = False, False, []
    for line in lines:
        out, i = [], 0
        while i < len(line):
            if in_block:
                end = line.find("*/", i)
                if end < 0:
                    i = len(line)
                    continue
                in_block, i = False, end + 2
            elif in_multiline:
                end = line.find('"""', i)
                if end < 0:
                    i = len(line)
                    continue
                in_multiline, i = False, end + 3
            elif line.startswith("//", i):
                break
            elif line.startswith("/*", i):
                in_block, i = True, i + 2
            elif line.startswith('"""', i):
                in_multiline, i = True, i + 3
            elif line[i] == '"':
                j = i + 1
                while j < len(line) and line[j] != '"':
                    j += 2 if line[j] == "\\" else 1
                i = j + 1
            else:
                out.append(line[i])
                i += 1
        result.append("".join(out))
    return result


def long_functions(path):
    with open(path, encoding="utf-8") as file:
        raw = file.read().split("\n")
    code = code_only(raw)
    for start, line in enumerate(code):
        if not DECLARATION.match(line):
            continue
        depth, opened = 0, False
        for end in range(start, len(code)):
            for char in code[end]:
                if char == "{":
                    depth, opened = depth + 1, True
                elif char == "}":
                    depth -= 1
            if opened and depth == 0:
                break
            if not opened and end > start and code[end].strip() == "" :
                break
        if opened and end - start + 1 > MOST_FUNCTION_LINES:
            yield start + 1, end - start + 1, raw[start].strip()[:80]
    yield from ()


def main():
    roots = sys.argv[1:] or ["Sources"]
    problems = 0
    for root in roots:
        for directory, _, names in sorted(os.walk(root)):
            for name in sorted(names):
                if not name.endswith(".swift"):
                    continue
                path = os.path.join(directory, name)
                with open(path, encoding="utf-8") as file:
                    count = sum(1 for _ in file)
                if count > MOST_FILE_LINES:
                    print(f"{path}: {count} lines (at most {MOST_FILE_LINES})")
                    problems += 1
                for line, length, text in long_functions(path):
                    print(f"{path}:{line}: {length}-line function (at most {MOST_FUNCTION_LINES}): {text}")
                    problems += 1
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
