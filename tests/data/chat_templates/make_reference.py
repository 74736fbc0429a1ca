#!/usr/bin/env python3
"""Reference renderings of the chat templates in this folder.

Every template x case of cases.json is rendered by Hugging Face transformers'
PreTrainedTokenizerFast.apply_chat_template(tokenize=False) (with Python's jinja2), the
way a model's tokenizer renders it; the outputs (or the fact that the template raised) are
written to reference.json, which tests/unit/jinja compares servebench's renderer against.

Run with the pinned venv made by scripts/jinja_venv.sh:
  ~/.cache/servebench/jinja-venv/bin/python tests/data/chat_templates/make_reference.py [OUT]
strftime_now is fixed to 2025-01-15 12:00:00 so the renderings do not depend on the day.
"""
import datetime
import json
import os
import sys

import jinja2
import transformers
from tokenizers import Tokenizer
from tokenizers.models import WordLevel

HERE = os.path.dirname(os.path.abspath(__file__))
FIXED_NOW = datetime.datetime(2025, 1, 15, 12, 0, 0)


def tokenizer_for(template, tokens):
    backend = Tokenizer(WordLevel({"<unk>": 0}, unk_token="<unk>"))
    special = {k: v for k, v in tokens.items() if v is not None}
    return transformers.PreTrainedTokenizerFast(
        tokenizer_object=backend, chat_template=template, **special)


def render(tok, case):
    kwargs = dict(case.get("kwargs", {}))
    kwargs["strftime_now"] = lambda fmt: FIXED_NOW.strftime(fmt)
    try:
        text = tok.apply_chat_template(
            case["messages"], tools=case.get("tools"), tokenize=False,
            add_generation_prompt=case["add_generation_prompt"], **kwargs)
        return {"output": text}
    except jinja2.exceptions.TemplateError as e:
        return {"error": str(e)}


def main():
    out_path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "reference.json")
    with open(os.path.join(HERE, "cases.json"), encoding="utf-8") as f:
        spec = json.load(f)
    result = {"generator": f"transformers=={transformers.__version__} jinja2=={jinja2.__version__}",
              "renderings": {}}
    for name, tokens in spec["templates"].items():
        with open(os.path.join(HERE, name + ".jinja"), encoding="utf-8") as f:
            template = f.read()
        tok = tokenizer_for(template, tokens)
        result["renderings"][name] = {c: render(tok, case) for c, case in spec["cases"].items()}
    with open(out_path, "w", encoding="utf-8") as f:
        json.dump(result, f, ensure_ascii=False, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
