#!/usr/bin/env python3
"""--apply-chat-template against a real server: for every profiling record of
profile_export.jsonl, servebench's ISL (counted through the model's chat template) must equal
the server's usage.prompt_tokens, and the mean ISL must be the requested --isl within 1 token
(--isl 0: no target, e.g. multi-turn sessions whose history grows).
Prints one PASS/FAIL line per check; exit 1 on any FAIL."""
import argparse
import glob
import json
import os
import sys


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--artifacts", required=True)
    p.add_argument("--label", required=True)
    p.add_argument("--isl", type=int, required=True)
    a = p.parse_args()
    paths = glob.glob(os.path.join(a.artifacts, "**", "profile_export.jsonl"), recursive=True)
    if not paths:
        print(f"FAIL {a.label} chat_template_isl no profile_export.jsonl under {a.artifacts}")
        return 1
    isl, server = [], []
    with open(paths[0], encoding="utf-8") as f:
        for line in f:
            rec = json.loads(line)
            m = rec.get("metrics") or {}
            get = lambda k: (m.get(k) or {}).get("value") if isinstance(m.get(k), dict) else m.get(k)
            if get("input_sequence_length") is None or get("usage_prompt_tokens") is None:
                continue
            isl.append(int(get("input_sequence_length")))
            server.append(int(get("usage_prompt_tokens")))
    failed = 0
    diffs = [s - i for i, s in zip(isl, server)]
    ok = bool(isl) and all(d == 0 for d in diffs)
    failed |= not ok
    print(f"{'PASS' if ok else 'FAIL'} {a.label} chat_template_isl_vs_server "
          f"{len(isl)} requests, prompt_tokens - ISL: {sorted(set(diffs))}")
    if a.isl == 0:
        return 1 if failed else 0
    mean = sum(server) / len(server) if server else 0
    ok = bool(server) and abs(mean - a.isl) <= 1
    failed |= not ok
    print(f"{'PASS' if ok else 'FAIL'} {a.label} chat_template_isl_on_target "
          f"server prompt_tokens mean {mean:.2f} (min {min(server, default=0)}, max "
          f"{max(server, default=0)}) for --isl {a.isl}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
