#!/usr/bin/env python3
"""Writes small Parquet files in the column schemas of the hub datasets --public-dataset reads
(tests/data/public_datasets), with pyarrow (the writer the hub's files come from):

  make_public_dataset_fixtures.py OUT_DIR

Prompts are plain words so servebench's and servebench-mock's builtin tokenizers count alike.
Extra columns (lists, structs) are kept as the hub has them: the reader must skip what it does
not read.
"""
import sys

import pyarrow as pa
import pyarrow.parquet as pq

MESSAGES = pa.list_(pa.struct([("content", pa.string()), ("role", pa.string())]))


def write(path, schema, rows):
    cols = {name: [r[i] for r in rows] for i, name in enumerate(schema.names)}
    pq.write_table(pa.table(cols, schema=schema), path)


def main():
    out = sys.argv[1]
    # AI-MO/NuminaMath-TIR and its siblings: problem, solution, messages.
    write(f"{out}/numina.parquet",
          pa.schema([("problem", pa.string()), ("solution", pa.string()), ("messages", MESSAGES)]),
          [("what is two plus three", "five", [{"content": "what is two plus three", "role": "user"}]),
           ("   ", "blank rows are skipped", []),
           ("how many sides has a square", "four", [])])
    # openai/gsm8k (main and socratic): question, answer.
    schema = pa.schema([("question", pa.string()), ("answer", pa.string())])
    write(f"{out}/gsm8k_main_test.parquet", schema,
          [("a farmer has six cows and buys two more how many cows", "#### 8"),
           ("tom reads ten pages a day for three days", "#### 30")])
    write(f"{out}/gsm8k_socratic_test.parquet", schema,
          [("how many legs do two birds have in total", "#### 4")])
    # google-research-datasets/mbpp (full): task_id, text, code, test_list, ...
    write(f"{out}/mbpp_full_test.parquet",
          pa.schema([("task_id", pa.int32()), ("text", pa.string()), ("code", pa.string()),
                     ("test_list", pa.list_(pa.string())), ("test_setup_code", pa.string()),
                     ("challenge_test_list", pa.list_(pa.string()))]),
          [(11, "write a function to remove the first and last letter", "def f(s): return s[1:-1]",
            ["assert f('abc') == 'b'"], "", []),
           (12, "write a function to sort a list of numbers", "def g(x): return sorted(x)", [], "", []),
           (13, "write a function to count the vowels in a word", "def h(w): pass", [], "", [])])
    # openai/openai_humaneval: task_id, prompt, canonical_solution, test, entry_point.
    write(f"{out}/humaneval.parquet",
          pa.schema([("task_id", pa.string()), ("prompt", pa.string()), ("canonical_solution", pa.string()),
                     ("test", pa.string()), ("entry_point", pa.string())]),
          [("HumanEval/0", "def add(a, b):\n    return the sum of a and b\n", "    return a + b\n",
            "def check(f): assert f(1, 2) == 3", "add")])
    # HuggingFaceH4/mt_bench_prompts: prompt (list of user turns), prompt_id, category, reference.
    write(f"{out}/mt_bench.parquet",
          pa.schema([("prompt", pa.list_(pa.string())), ("prompt_id", pa.int64()), ("category", pa.string()),
                     ("reference", pa.list_(pa.string()))]),
          [(["write a short poem about the moon", "  now make it rhyme  "], 81, "writing", []),
           (["name a prime number", ""], 82, "math", ["two"])])
    # vdaita/edit_5k_char: code, change_request (and the edited file).
    write(f"{out}/blazedit.parquet",
          pa.schema([("code", pa.string()), ("change_request", pa.string()), ("new_code", pa.string())]),
          [("def add(a, b):\n    return a + b", "rename the function to plus", "def plus(a, b): ...")])
    # likaixin/InstructCoder: instruction, input, output.
    write(f"{out}/instruct_coder.parquet",
          pa.schema([("instruction", pa.string()), ("input", pa.string()), ("output", pa.string())]),
          [("add a docstring to the function", "def f(): pass", "def f():\n    '''doc'''")])


if __name__ == "__main__":
    main()
