#!/usr/bin/env python3
"""Regenerates tests/data/aiperf_profile_flags.txt from the real `aiperf profile --help`.

Each line of the list is `names | status | sample | note`:
  names   every spelling AIPerf's help shows for the flag ("--model-names --model -m")
  status  accepted | noop | refused | pending:<area>
  sample  arguments that exercise the flag in a parse-only check ("-" = names only)
  note    why (required for noop, refused and pending)
Rows already in the list keep their status, sample and note; new flags get `accepted` when
servebench's own --help names all their spellings, else `pending:unassigned`. Flags AIPerf no
longer has are dropped (and printed).

  scripts/parity/gen_flag_list.py [--aiperf PATH] [--servebench PATH] [--out FILE]
"""
import argparse
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
DEFAULT_OUT = os.path.join(ROOT, "tests", "data", "aiperf_profile_flags.txt")
DEFAULT_AIPERF = os.path.expanduser("~/.cache/servebench/aiperf-venv/bin/aiperf")
HEADER = """# Every `aiperf profile` flag (aiperf==0.13.0, parsed from `aiperf profile --help` by
# scripts/parity/gen_flag_list.py) and how servebench takes it. Columns, separated by " | ":
#   names   every spelling AIPerf shows     status  accepted | noop | refused | pending:<area>
#   sample  parse-only arguments ("-": the names are checked, no value)    note  why
# tests/unit/parity/flag_parity_test.cc checks this list against servebench's flag table, and
# docs/aiperf-compatibility.md is generated from it (scripts/parity/gen_compat_doc.py).
"""


def aiperf_flags(aiperf):
    env = dict(os.environ, COLUMNS="300", NO_COLOR="1", HF_HUB_OFFLINE="1")
    text = subprocess.run([aiperf, "profile", "--help"], capture_output=True, text=True,
                          env=env, check=True).stdout
    group, out = "", []
    for line in text.splitlines():
        m = re.match(r"^╭─ (.+?) ─", line)
        if m:
            group = m.group(1)
            continue
        m = re.match(r"^│ (-\S+(?: -\S+)*)", line)
        if m:
            out.append((m.group(1), group))
    return out


def servebench_names(servebench):
    if not servebench or not os.path.exists(servebench):
        return set()
    text = subprocess.run([servebench, "profile", "--help"], capture_output=True, text=True).stdout
    return set(re.findall(r"(?<![\w-])(--?[A-Za-z][\w-]*)", text))


def read_list(path):
    rows = {}
    if not os.path.exists(path):
        return rows
    for line in open(path, encoding="utf-8"):
        if not line.strip() or line.startswith("#"):
            continue
        parts = [p.strip() for p in line.rstrip("\n").split(" | ")]
        if len(parts) == 4:
            rows[parts[0]] = parts[1:]
    return rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--aiperf", default=DEFAULT_AIPERF)
    ap.add_argument("--servebench", default=os.path.join(ROOT, "build", "bin", "servebench"))
    ap.add_argument("--out", default=DEFAULT_OUT)
    a = ap.parse_args()
    old = read_list(a.out)
    ours = servebench_names(a.servebench)
    lines, seen = [HEADER], set()
    last_group = None
    for names, group in aiperf_flags(a.aiperf):
        if names in seen:
            continue
        seen.add(names)
        if group != last_group:
            lines.append(f"\n# {group}\n")
            last_group = group
        if names in old:
            status, sample, note = old[names]
        elif ours and all(n in ours for n in names.split()):
            status, sample, note = "accepted", "-", ""
        else:
            status, sample, note = "pending:unassigned", "-", "not in servebench's flag table yet"
        lines.append(f"{names} | {status} | {sample} | {note}\n")
    for gone in sorted(set(old) - seen):
        print(f"dropped (not in aiperf profile --help): {gone}", file=sys.stderr)
    with open(a.out, "w", encoding="utf-8") as f:
        f.write("".join(lines))
    print(f"{a.out}: {len(seen)} flags", file=sys.stderr)


if __name__ == "__main__":
    main()
