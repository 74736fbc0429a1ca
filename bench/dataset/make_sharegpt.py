#!/usr/bin/env python3
"""Writes a ShareGPT-sized file for the --public-dataset sharegpt load benchmark
(docs/performance.md): AIPerf's conversation count (73,499), 1-5 human/gpt exchanges each, texts
cut from the vendored Moby-Dick corpus at seeded offsets, about 585 MB. Deterministic.

usage: make_sharegpt.py OUT.json [CONVERSATIONS]
"""
import json
import random
import sys
from pathlib import Path

corpus = (Path(__file__).resolve().parents[2] / "data/corpus/mobydick.txt").read_text()
rng = random.Random(18)
out_path = sys.argv[1]
count = int(sys.argv[2]) if len(sys.argv) > 2 else 73499


def text(lo, hi):
    n = rng.randint(lo, hi)
    at = rng.randrange(0, len(corpus) - n)
    return corpus[at:at + n]


with open(out_path, "w") as out:
    out.write("[")
    for i in range(count):
        turns = []
        for _ in range(rng.randint(1, 5)):
            turns.append({"from": "human", "value": text(20, 4800)})
            turns.append({"from": "gpt", "value": text(20, 400)})
        if i:
            out.write(",")
        out.write(json.dumps({"id": f"conv{i}", "conversations": turns}))
    out.write("]")
