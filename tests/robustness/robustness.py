#!/usr/bin/env python3
"""servebench robustness suite (issue 11, docs/reliability.md): a table of bad inputs and
misbehaving servers (cases.py), each run against the real binaries (harness.py).

  robustness.py --list                       # case names (ctest registers one test per case)
  robustness.py --bin build/bin --case NAME  # one case: exit 0 pass, 77 skipped, 1 failed
  robustness.py --bin build/bin              # every case in turn, with a summary

A case whose failure is expected until another branch is merged (EXPECTED_TO_FAIL_UNTIL_MERGED)
is reported as skipped with the issue item; if it passes, it fails so that the list is emptied."""

import argparse
import os
import shutil
import sys
import tempfile
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import harness  # noqa: E402
from cases import CASES, EXPECTED_TO_FAIL_UNTIL_MERGED  # noqa: E402

SKIP = 77


def judge(case, failed):
    """(exit status, verdict line) for a case's failed checks."""
    expected = EXPECTED_TO_FAIL_UNTIL_MERGED.get(case.name)
    unexplained = [f for f in failed if not expected and f"check:{f[0]}" not in EXPECTED_TO_FAIL_UNTIL_MERGED]
    if unexplained:
        return 1, "FAIL " + "; ".join(f"{n}: {m}" for n, m in unexplained)
    if expected and not failed:
        return 1, f"FAIL unexpectedly passed: remove '{case.name}' from EXPECTED_TO_FAIL_UNTIL_MERGED ({expected})"
    if failed:
        reasons = sorted({expected or EXPECTED_TO_FAIL_UNTIL_MERGED[f"check:{n}"] for n, _ in failed})
        detail = "; ".join(f"{n}: {m}" for n, m in failed)
        return SKIP, f"SKIPPED expected to fail until merged: {', '.join(reasons)} -- {detail} (other checks passed)"
    return 0, "PASS"


def run_one(case, bin_dir, keep):
    tmp = tempfile.mkdtemp(prefix=f"sb-robust-{case.name}-")
    try:
        ctx, failed = harness.run(case, bin_dir, tmp)
        status, verdict = judge(case, failed)
        print(f"{case.name}: {verdict} (exit {ctx.exit}, {ctx.elapsed_s:.2f} s)", flush=True)
        if status == 1:
            print(f"  stderr: {harness.tail(ctx.stderr, 800)}")
            keep = True
        return status
    except harness.Unavailable as e:
        print(f"{case.name}: SKIPPED {e}", flush=True)
        return SKIP
    except Exception as e:  # a broken fixture is a failure, never a pass
        print(f"{case.name}: FAIL fixture error: {e!r}", flush=True)
        keep = True
        return 1
    finally:
        if keep:
            print(f"  files kept in {tmp}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--bin", default="build/bin", help="folder with servebench and servebench-mock")
    p.add_argument("--case", help="run this case only")
    p.add_argument("--list", action="store_true", help="print the case names")
    p.add_argument("--keep", action="store_true", help="keep every case's temporary folder")
    a = p.parse_args()
    names = [c.name for c in CASES]
    assert len(set(names)) == len(names), "duplicate case names"
    for key in EXPECTED_TO_FAIL_UNTIL_MERGED:
        assert key.startswith("check:") or key in names, f"unknown case in EXPECTED_TO_FAIL_UNTIL_MERGED: {key}"
    if a.list:
        print("\n".join(names))
        return 0
    selected = [c for c in CASES if a.case in (None, c.name)]
    if not selected:
        print(f"no case named {a.case}", file=sys.stderr)
        return 2
    start = time.monotonic()
    results = {c.name: run_one(c, a.bin, a.keep) for c in selected}
    if len(selected) == 1:
        return results[selected[0].name]
    failed = [n for n, s in results.items() if s == 1]
    skipped = [n for n, s in results.items() if s == SKIP]
    print(f"robustness: {len(results) - len(failed) - len(skipped)} passed, {len(skipped)} skipped "
          f"(expected to fail until merged), {len(failed)} failed in {time.monotonic() - start:.1f} s")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
