#!/usr/bin/env python3
"""Writes the Parquet reader's differential fixtures with pyarrow, and dumps what pyarrow reads.

  make_fixtures.py write OUT_DIR     one .parquet per encoding/codec/page-version combination,
                                     plus OUT_DIR/expected.json: pyarrow's own read (the same
                                     for every file; checked)
  make_fixtures.py unsupported DIR   files the reader must refuse with a named error
  make_fixtures.py dump FILE.parquet prints pyarrow's read of any file as JSON

The JSON maps column name -> list of row values (null for nulls; lists as arrays; timestamps
as their integer count; floats as numbers). The data are seeded, so two runs write the same
values; tests/unit/parquet compares servebench's decoder against these dumps.
"""
import json
import random
import sys

import pyarrow as pa
import pyarrow.parquet as pq

ROWS = 120


def table():
    rnd = random.Random(7)
    words = ["", "a", "hello", "naïve café", "日本語", "x" * 40, "prompt with spaces"]

    def maybe(v, p=0.15):
        return None if rnd.random() < p else v

    cols = {
        "i32": pa.array([rnd.randint(-2**31, 2**31 - 1) for _ in range(ROWS)], pa.int32()),
        "i64": pa.array([maybe(rnd.randint(-2**62, 2**62)) for _ in range(ROWS)], pa.int64()),
        "small": pa.array([rnd.randint(0, 5) for _ in range(ROWS)], pa.int64()),
        "ts_ms": pa.array([1_700_000_000_000 + i * 37 + rnd.randint(0, 30) for i in range(ROWS)],
                          pa.timestamp("ms")),
        "ts_us": pa.array([maybe(1_700_000_000_000_000 + i * 1234) for i in range(ROWS)],
                          pa.timestamp("us", tz="UTC")),
        "f32": pa.array([maybe(rnd.uniform(-1e6, 1e6)) for _ in range(ROWS)], pa.float32()),
        "f64": pa.array([rnd.uniform(-1e300, 1e300) for _ in range(ROWS)], pa.float64()),
        "flag": pa.array([maybe(rnd.random() < 0.5) for _ in range(ROWS)], pa.bool_()),
        "text": pa.array([maybe(rnd.choice(words) + str(rnd.randint(0, 9))) for _ in range(ROWS)],
                         pa.string()),
        "session": pa.array([f"s{rnd.randint(0, 20)}" for _ in range(ROWS)], pa.string()),
        "blob": pa.array([bytes(rnd.randint(0, 255) for _ in range(rnd.randint(0, 6)))
                          for _ in range(ROWS)], pa.binary()),
        "fixed": pa.array([bytes(rnd.randint(0, 255) for _ in range(4)) for _ in range(ROWS)],
                          pa.binary(4)),
        "hashes": pa.array([None if rnd.random() < 0.1 else
                            [rnd.randint(0, 10**12) for _ in range(rnd.randint(0, 9))]
                            for _ in range(ROWS)], pa.list_(pa.int64())),
        "hashes_req": pa.array([[maybe(rnd.randint(0, 99), 0.2) for _ in range(rnd.randint(0, 4))]
                                for _ in range(ROWS)],
                               pa.list_(pa.field("element", pa.int32(), nullable=True))),
    }
    return pa.table(cols)


# (name, write_table keyword arguments)
def combos():
    out = []
    for codec in ["NONE", "SNAPPY", "GZIP", "ZSTD"]:
        for version in ["1.0", "2.0"]:
            for dictionary in [True, False]:
                name = f"{codec.lower()}_v{version[0]}_{'dict' if dictionary else 'plain'}"
                out.append((name, dict(compression=codec, data_page_version=version,
                                       use_dictionary=dictionary)))
    enc = {"i32": "DELTA_BINARY_PACKED", "i64": "DELTA_BINARY_PACKED",
           "small": "DELTA_BINARY_PACKED", "ts_ms": "DELTA_BINARY_PACKED",
           "text": "DELTA_LENGTH_BYTE_ARRAY", "session": "DELTA_BYTE_ARRAY",
           "blob": "DELTA_BYTE_ARRAY", "f32": "BYTE_STREAM_SPLIT", "f64": "BYTE_STREAM_SPLIT",
           "hashes": "DELTA_BINARY_PACKED"}
    for codec in ["NONE", "ZSTD"]:
        for version in ["1.0", "2.0"]:
            out.append((f"delta_{codec.lower()}_v{version[0]}",
                        dict(compression=codec, data_page_version=version, use_dictionary=False,
                             column_encoding=enc)))
    # Several row groups and many small pages.
    out.append(("snappy_v1_small_pages", dict(compression="SNAPPY", row_group_size=70,
                                              data_page_size=256, write_batch_size=16)))
    out.append(("gzip_v2_small_pages", dict(compression="GZIP", data_page_version="2.0",
                                            row_group_size=128, data_page_size=200,
                                            write_batch_size=10, use_dictionary=False)))
    return out


def json_value(v):
    if isinstance(v, bytes):
        return v.hex()
    if isinstance(v, list):
        return [json_value(x) for x in v]
    return v


def dump(path):
    t = pq.read_table(path)
    out = {}
    for name in t.column_names:
        col = t.column(name)
        if pa.types.is_timestamp(col.type):
            col = col.cast(pa.int64())
        out[name] = [json_value(v) for v in col.to_pylist()]
    return out


def unsupported(out_dir):
    ok = pa.array([1, 2], pa.int64())
    pq.write_table(pa.table({"ok": ok, "meta": pa.array([{"a": 1}, {"a": 2}])}),
                   f"{out_dir}/struct.parquet")
    pq.write_table(pa.table({"ok": ok, "hash_ids": pa.array([[[1]], [[2, 3]]])}),
                   f"{out_dir}/list_of_list.parquet")
    pq.write_table(pa.table({"ok": ok, "m": pa.array([[("k", 1)], []], pa.map_(pa.string(), pa.int64()))}),
                   f"{out_dir}/map.parquet")
    pq.write_table(pa.table({"ok": ok}), f"{out_dir}/brotli.parquet", compression="BROTLI")
    pq.write_table(pa.table({"ok": ok}), f"{out_dir}/lz4.parquet", compression="LZ4")


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ("write", "dump", "unsupported"):
        sys.exit(__doc__)
    if sys.argv[1] == "unsupported":
        unsupported(sys.argv[2])
        return
    if sys.argv[1] == "dump":
        json.dump(dump(sys.argv[2]), sys.stdout)
        return
    t = table()
    expected = None
    for name, kw in combos():
        path = f"{sys.argv[2]}/{name}.parquet"
        pq.write_table(t, path, **kw)
        got = dump(path)
        if expected is not None and got != expected:
            sys.exit(f"pyarrow reads {path} differently from the other files")
        expected = got
    with open(f"{sys.argv[2]}/expected.json", "w") as f:
        json.dump(expected, f)


if __name__ == "__main__":
    main()
