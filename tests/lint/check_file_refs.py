#!/usr/bin/env python3
"""Fails when a source comment names a repository file that does not exist.

Looks at comments in src/, tools/, tests/, bench/ (C++ '//' lines) for tokens that look like
repository paths (with a '/' and a known extension) and checks each against the tree, relative to
the repository root or to src/.
"""
import os
import re
import sys

ROOT = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", ".."))
EXT = r"(?:h|cc|cpp|md|py|sh|js|json|jsonl|txt|yaml|cmake|csv|inc)"
PATH_RE = re.compile(r"(?<![\w./-])((?:[\w.-]+/)+[\w.-]+\." + EXT + r")(?![\w])")
SKIP_PREFIXES = ("http", "www.", "/proc", "/dev", "/tmp", "/etc", "/usr", "/sys")


def exists(path, here):
    path = path.rstrip(".,;:)")
    for base in (ROOT, here, os.path.join(ROOT, "src"), os.path.join(ROOT, "tools"), os.path.join(ROOT, "tests")):
        if os.path.exists(os.path.join(base, path)):
            return True
    return False


def main():
    bad = []
    for top in ("src", "tools", "tests", "bench"):
        for dirpath, _, files in os.walk(os.path.join(ROOT, top)):
            rel = dirpath.replace(ROOT, "")
            if "/data" in rel or "corpus" in rel or "lint/fixture" in rel:
                continue
            for name in files:
                if not name.endswith((".h", ".cc", ".cpp")):
                    continue
                full = os.path.join(dirpath, name)
                with open(full, encoding="utf-8", errors="replace") as f:
                    for lineno, line in enumerate(f, 1):
                        i = line.find("//")
                        if i < 0:
                            continue
                        comment = line[i + 2:]
                        for m in PATH_RE.finditer(comment):
                            p = m.group(1)
                            if p.startswith(SKIP_PREFIXES) or "*" in p or "<" in p:
                                continue
                            if p.split("/")[0].isupper():  # a placeholder such as DIR/x.json
                                continue
                            if not exists(p, dirpath):
                                bad.append(f"{os.path.relpath(full, ROOT)}:{lineno}: names missing file '{p}'")
    for b in bad:
        print(b)
    print(f"check_file_refs: {len(bad)} dangling reference(s)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
