#!/usr/bin/env python3
"""Checks a multi-turn `servebench profile` run against a real server (live history).

Reads profile_export_raw.jsonl (bodies as sent, responses as received) and checks, per session
(x_correlation_id):
  - every turn succeeded, turns 0..n-1 all present, one worker per session;
  - turn t's body holds 2t+1 messages (plus the preamble), alternating user/assistant;
  - the assistant message at position k of turn t is exactly the text the server streamed for
    turn k of that session (live history, not canned text);
  - the server's usage.prompt_tokens grows turn by turn by at least the new turn's own tokens.
Prints one PASS/FAIL line per check; exit 1 on any failure.
"""
import argparse
import collections
import glob
import json
import sys


def conversation(payload):
    """The (role, text) turns of a body: chat and Anthropic `messages` ({"role","content": text}),
    or the Responses API's `input` items (content parts' text joined). System prompts (a system
    message, `instructions`, `system`) are not part of the conversation."""
    out = []
    for m in payload.get("messages", payload.get("input", [])):
        content = m.get("content")
        if isinstance(content, list):
            content = "".join(p.get("text", "") for p in content if isinstance(p, dict))
        out.append({"role": m.get("role"), "content": content})
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--artifacts", required=True)
    ap.add_argument("--label", required=True)
    ap.add_argument("--sessions", type=int, required=True)
    ap.add_argument("--turns", type=int, required=True)
    ap.add_argument("--isl", type=int, required=True)
    a = ap.parse_args()
    raws = glob.glob(f"{a.artifacts}/**/profile_export_raw.jsonl", recursive=True)
    results = []

    def check(name, ok, detail=""):
        results.append(ok)
        print(f"{'PASS' if ok else 'FAIL'} {a.label} {name}{(' ' + detail) if detail else ''}")

    if len(raws) != 1:
        check("raw_export_present", False, f"found {len(raws)}")
        return 1
    rows = [json.loads(l) for l in open(raws[0])]
    rows = [r for r in rows if r["metadata"]["benchmark_phase"] == "profiling"]
    by = collections.defaultdict(list)
    for r in rows:
        by[r["metadata"]["x_correlation_id"]].append(r)
    check("sessions", len(by) == a.sessions, f"{len(by)} of {a.sessions}")
    errors = [r for r in rows if r["error"] is not None or r["status"] != 200]
    check("all_turns_ok", not errors, f"{len(errors)} failed of {len(rows)}")
    history_ok, growth_ok, shape_ok, worker_ok = True, True, True, True
    detail = ""
    for sid, turns in by.items():
        turns.sort(key=lambda r: r["metadata"]["turn_index"])
        if [r["metadata"]["turn_index"] for r in turns] != list(range(a.turns)):
            shape_ok = False
            detail = f"{sid}: turn indices {[r['metadata']['turn_index'] for r in turns]}"
            continue
        if len({r["metadata"]["worker_id"] for r in turns}) != 1:
            worker_ok = False
        replies = ["".join(x.get("text", "") for x in r["responses"] if x["kind"] == "content") for r in turns]
        for t, r in enumerate(turns):
            msgs = conversation(r["payload"])
            convo = [m for m in msgs if m["role"] in ("user", "assistant")]
            if len(convo) != 2 * t + 1 or any(m["role"] != ("user" if i % 2 == 0 else "assistant")
                                                for i, m in enumerate(convo)):
                shape_ok = False
                detail = f"{sid} turn {t}: roles {[m['role'] for m in msgs]}"
            for k in range(t):
                if convo[2 * k + 1]["content"] != replies[k]:
                    history_ok = False
                    detail = f"{sid} turn {t}: assistant message {k} is not turn {k}'s reply"
            if t > 0:
                prev, cur = turns[t - 1]["usage"]["prompt_tokens"], r["usage"]["prompt_tokens"]
                if not (cur >= prev + a.isl):
                    growth_ok = False
                    detail = f"{sid} turn {t}: prompt_tokens {prev} -> {cur}"
    check("turn_shape", shape_ok, detail if not shape_ok else "")
    check("one_worker_per_session", worker_ok)
    check("history_is_live_replies", history_ok, detail if not history_ok else "")
    check("server_prompt_grows", growth_ok, detail if not growth_ok else "")
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
