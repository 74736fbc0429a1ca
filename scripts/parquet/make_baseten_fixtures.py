#!/usr/bin/env python3
"""Writes Baseten trace Parquet files with pyarrow (the writer AIPerf's loader reads with).

  make_baseten_fixtures.py example OUT.parquet        the small example trace (examples/)
  make_baseten_fixtures.py fixtures DIR               unit-test variants (tests/data/parquet/baseten)
  make_baseten_fixtures.py bench N OUT.parquet        N synthetic rows (bench/baseten_parse.sh)

Column types follow Baseten's exports: int64 times and counts, string prompts, a list<int64>
of KV block hashes.
"""
import random
import sys

import pyarrow as pa
import pyarrow.parquet as pq

BASE_MS = 1_717_000_000_000

SCHEMA = pa.schema([
    ("timestamp_start_unix_ms", pa.int64()),
    ("provided_session_id", pa.string()),
    ("poor_man_session_id", pa.int64()),
    ("prompt", pa.string()),
    ("input_tokens", pa.int64()),
    ("output_tokens", pa.int64()),
    ("total_hashes", pa.list_(pa.int64())),
    ("block_size", pa.int64()),
    ("duration_e2e_ms", pa.int64()),
    ("duration_ttft_ms", pa.int64()),
    ("request_canceled", pa.int64()),
    ("output_text", pa.string()),
    ("model_name", pa.string()),
])


def example_rows():
    # (offset ms, session, poor-man id, prompt or None, input, output, hashes, e2e)
    return [
        (0, "s1", 1, "You are a helpful assistant. Summarise the plot of Hamlet.", 14, 24, [1, 2], 120),
        (40, None, None, "Write one line about the sea.", 8, 12, [], 60),
        (70, "s2", 2, None, 64, 16, [7, 8, 9], 90),
        (110, "s3", 3, "Translate 'good morning' into French.", 10, 8, [3], 50),
        (150, "s1", 1, "You are a helpful assistant. Summarise the plot of Hamlet. "
                      "Now compare it with Macbeth.", 24, 32, [1, 2, 4], 150),
        (190, "s2", 2, None, 96, 20, [7, 8, 9, 10], 100),
        (230, None, None, None, 40, 10, None, 40),
        (260, "s3", 3, "Translate 'good night' into French.", 10, 0, [3, 5], 30),
        (300, "s4", 4, None, 128, 8, [11, 12], 70),
        (340, "s1", 1, "Summarise both in one sentence.", 9, 16, [1, 2, 4, 6], 90),
        (380, "s4", 4, None, 33, 8, [], 60),
        (420, None, None, "Count to five.", 5, 10, [], 20),
    ]


def table(rows, drop=()):
    cols = {
        "timestamp_start_unix_ms": [BASE_MS + r[0] for r in rows],
        "provided_session_id": [r[1] for r in rows],
        "poor_man_session_id": [r[2] for r in rows],
        "prompt": [r[3] for r in rows],
        "input_tokens": [r[4] for r in rows],
        "output_tokens": [r[5] for r in rows],
        "total_hashes": [r[6] for r in rows],
        "block_size": [16] * len(rows),
        "duration_e2e_ms": [r[7] for r in rows],
        "duration_ttft_ms": [max(1, r[7] // 4) for r in rows],
        "request_canceled": [0] * len(rows),
        "output_text": ["ok"] * len(rows),
        "model_name": ["tiny"] * len(rows),
    }
    schema = pa.schema([f for f in SCHEMA if f.name not in drop])
    return pa.table({k: v for k, v in cols.items() if k not in drop}, schema=schema)


def fixtures(out_dir):
    rows = example_rows()
    # Rows out of time order, to check sorting; dictionary + snappy (pyarrow's defaults).
    shuffled = rows[:]
    random.Random(3).shuffle(shuffled)
    pq.write_table(table(shuffled), f"{out_dir}/shuffled.parquet")
    pq.write_table(table(rows, drop=("provided_session_id",)), f"{out_dir}/poor_man_key.parquet",
                   compression="ZSTD", data_page_version="2.0")
    pq.write_table(table(rows, drop=("provided_session_id", "poor_man_session_id")),
                   f"{out_dir}/no_key.parquet", compression="GZIP")
    pq.write_table(table(rows, drop=("output_tokens",)), f"{out_dir}/no_output_tokens.parquet")
    bad = [list(r) for r in rows]
    bad[3][4] = -5
    pq.write_table(table([tuple(r) for r in bad]), f"{out_dir}/negative_input.parquet")
    # The documented example: (s1, 1000, e2e 400), (s2, 1500), (s1, 2100).
    doc = [(1000, "s1", 1, "a", 1, 5, [], 400), (1500, "s2", 2, "b", 1, 5, [], 100),
           (2100, "s1", 1, "c", 1, 5, [], 100), (62000, "s3", 3, "d", 1, 5, [], 100)]
    pq.write_table(table(doc), f"{out_dir}/doc_example.parquet")


def bench(n, path):
    rnd = random.Random(5)
    words = "the quick brown fox jumps over the lazy dog while servers stream tokens".split()
    writer = None
    chunk = 100_000
    for start in range(0, n, chunk):
        rows = []
        for i in range(start, min(n, start + chunk)):
            sid = f"sess-{rnd.randint(0, n // 8)}"
            prompt = " ".join(rnd.choice(words) for _ in range(rnd.randint(4, 24)))
            hashes = [rnd.randint(0, 10**9) for _ in range(rnd.randint(0, 8))]
            rows.append((i * 3, sid, i % 1000, prompt, rnd.randint(10, 4000),
                         rnd.randint(1, 800), hashes, rnd.randint(50, 5000)))
        t = table(rows)
        if writer is None:
            writer = pq.ParquetWriter(path, t.schema)
        writer.write_table(t)
    writer.close()


def main():
    if len(sys.argv) >= 3 and sys.argv[1] == "example":
        pq.write_table(table(example_rows()), sys.argv[2])
    elif len(sys.argv) >= 3 and sys.argv[1] == "fixtures":
        fixtures(sys.argv[2])
    elif len(sys.argv) >= 4 and sys.argv[1] == "bench":
        bench(int(sys.argv[2]), sys.argv[3])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
