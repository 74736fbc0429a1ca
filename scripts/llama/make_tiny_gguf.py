#!/usr/bin/python3
"""Writes a tiny random-weight llama-architecture GGUF that carries a real tokenizer.

No model weights can be downloaded here, but llama-server only needs *a* model: the conformance
suite checks token accounting, not text quality. So this takes every tokenizer.* key from one of
the vocab-only GGUFs in the llama.cpp tree (models/ggml-vocab-llama-bpe.gguf = Llama-3,
models/ggml-vocab-qwen2.gguf = Qwen2) and adds a 2-layer, 64-dim llama body with random weights
drawn from a fixed numpy seed, so the same inputs always give the same bytes.

Uses the llama.cpp tree's own gguf-py (no pip: PyPI is unreachable) and Debian's python3-numpy,
hence /usr/bin/python3 rather than whatever python3 is first on PATH.

  make_tiny_gguf.py --llama-src DIR --vocab llama-bpe --out tiny-llama3.gguf
"""

import argparse
import os
import sys

# Llama-3-Instruct's chat template without its `| trim` on the content: the vocab-only Llama-3 GGUF
# carries no template (llama-server would fall back to ChatML), and without the trim the template
# adds exactly the same tokens to every single-turn prompt, which the ISL check relies on.
LLAMA3_CHAT_TEMPLATE = (
    "{% for message in messages %}"
    "{% set content = '<|start_header_id|>' + message['role'] + '<|end_header_id|>\n\n'"
    " + message['content'] + '<|eot_id|>' %}"
    "{% if loop.index0 == 0 %}{% set content = bos_token + content %}{% endif %}"
    "{{ content }}{% endfor %}"
    "{% if add_generation_prompt %}{{ '<|start_header_id|>assistant<|end_header_id|>\n\n' }}{% endif %}"
)


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--llama-src", required=True, help="llama.cpp source dir (scripts/llama/build_server.sh --source)")
    p.add_argument("--vocab", required=True, help="vocab name: models/ggml-vocab-<NAME>.gguf, e.g. llama-bpe, qwen2")
    p.add_argument("--out", required=True, help="output .gguf path")
    p.add_argument("--seed", type=int, default=20261130)
    p.add_argument("--embd", type=int, default=64)
    p.add_argument("--layers", type=int, default=2)
    p.add_argument("--heads", type=int, default=4)
    p.add_argument("--kv-heads", type=int, default=2)
    p.add_argument("--ff", type=int, default=128)
    p.add_argument("--ctx", type=int, default=4096)
    return p.parse_args()


def gpt2_byte_decoder():
    """GPT-2's byte-level BPE alphabet: the printable character standing for each byte."""
    bs = list(range(ord("!"), ord("~") + 1)) + list(range(ord("\xa1"), ord("\xac") + 1)) \
        + list(range(ord("\xae"), ord("\xff") + 1))
    cs = bs[:]
    n = 0
    for b in range(256):
        if b not in bs:
            bs.append(b)
            cs.append(256 + n)
            n += 1
    return {chr(c): b for b, c in zip(bs, cs)}


def emittable_tokens(tokens, types, model):
    """Which tokens the tiny model may generate: ordinary tokens whose text is complete UTF-8.

    Random weights would otherwise emit control tokens and lone bytes of multi-byte characters;
    llama-server's chat-output parser rejects invalid UTF-8 ("does not match the expected
    Content-only format", HTTP 500 or an error event mid-stream). Real models rarely do either.
    """
    normal = 1  # llama_token_type NORMAL
    if model != "gpt2":
        return [t == normal for t in types]
    dec = gpt2_byte_decoder()
    ok = []
    for text, t in zip(tokens, types):
        good = t == normal and len(text) > 0 and all(ch in dec for ch in text)
        if good:
            try:
                bytes(dec[ch] for ch in text).decode("utf-8")
            except UnicodeDecodeError:
                good = False
        ok.append(good)
    return ok


def fail(msg):
    print(f"make_tiny_gguf.py: {msg}", file=sys.stderr)
    sys.exit(2)


def main():
    a = parse_args()
    vocab_path = os.path.join(a.llama_src, "models", f"ggml-vocab-{a.vocab}.gguf")
    if not os.path.isfile(vocab_path):
        fail(f"vocab GGUF {vocab_path} not found; pass --llama-src from build_server.sh --source")
    if a.embd % a.heads or a.heads % a.kv_heads:
        fail("--embd must be divisible by --heads and --heads by --kv-heads")
    sys.path.insert(0, os.path.join(a.llama_src, "gguf-py"))
    try:
        import numpy as np
        import gguf
    except ImportError as e:
        fail(f"{e}; install Debian python3-numpy (scripts/setup.sh) and run with /usr/bin/python3")

    reader = gguf.GGUFReader(vocab_path)
    tok_fields = {k: f for k, f in reader.fields.items() if k.startswith("tokenizer.")}
    tokens = tok_fields.get("tokenizer.ggml.tokens")
    if tokens is None:
        fail(f"{vocab_path} has no tokenizer.ggml.tokens")
    n_vocab = len(tokens.data)

    arch = "llama"
    w = gguf.GGUFWriter(a.out + ".tmp", arch)
    w.add_name(f"servebench-tiny-{a.vocab}")
    w.add_context_length(a.ctx)
    w.add_embedding_length(a.embd)
    w.add_block_count(a.layers)
    w.add_feed_forward_length(a.ff)
    w.add_head_count(a.heads)
    w.add_head_count_kv(a.kv_heads)
    w.add_rope_dimension_count(a.embd // a.heads)
    w.add_rope_freq_base(10000.0)
    w.add_layer_norm_rms_eps(1e-5)
    w.add_vocab_size(n_vocab)
    w.add_file_type(gguf.LlamaFileType.MOSTLY_F16)

    for key, field in tok_fields.items():
        vtype = field.types[0]
        if vtype == gguf.GGUFValueType.ARRAY:
            w.add_key_value(key, field.contents(), vtype, sub_type=field.types[-1])
        else:
            w.add_key_value(key, field.contents(), vtype)
    if "tokenizer.chat_template" not in tok_fields and a.vocab == "llama-bpe":
        w.add_chat_template(LLAMA3_CHAT_TEMPLATE)

    rng = np.random.default_rng(a.seed)
    head_dim = a.embd // a.heads
    kv_dim = head_dim * a.kv_heads

    def mat(rows, cols):
        # numpy shape is (out, in); GGUF stores the reversed dims, as llama.cpp expects.
        return (rng.standard_normal((rows, cols), dtype=np.float32) * 0.02).astype(np.float16)

    def ones(n):
        return np.ones(n, dtype=np.float32)

    # No output.weight: llama ties the output projection to token_embd when it is absent. Column 0
    # of the embeddings is +kSteer for tokens the model may emit and -kSteer for the rest; the
    # other weights are small, so the residual stream's dim 0 stays ≈ +kSteer, dominates the final
    # RMS norm (≈ 8 = sqrt(64) after it), and the tied output gives emittable tokens logits ≈ +16
    # and the others ≈ -16: the rest never get sampled, and the emittable ones come out nearly
    # uniformly (the small random part of the logits).
    k_steer = 2.0
    tok_model = tok_fields["tokenizer.ggml.model"].contents() if "tokenizer.ggml.model" in tok_fields else ""
    types = tok_fields["tokenizer.ggml.token_type"].contents() if "tokenizer.ggml.token_type" in tok_fields \
        else [1] * n_vocab
    ok = np.array(emittable_tokens(tokens.contents(), types, tok_model))
    if ok.sum() < 1000:
        fail(f"only {int(ok.sum())} emittable tokens in {vocab_path}; unexpected vocabulary layout")
    embd = mat(n_vocab, a.embd)
    embd[:, 0] = np.where(ok, k_steer, -k_steer).astype(np.float16)
    w.add_tensor("token_embd.weight", embd)
    w.add_tensor("output_norm.weight", ones(a.embd))
    for i in range(a.layers):
        b = f"blk.{i}."
        w.add_tensor(b + "attn_norm.weight", ones(a.embd))
        w.add_tensor(b + "attn_q.weight", mat(a.embd, a.embd))
        w.add_tensor(b + "attn_k.weight", mat(kv_dim, a.embd))
        w.add_tensor(b + "attn_v.weight", mat(kv_dim, a.embd))
        w.add_tensor(b + "attn_output.weight", mat(a.embd, a.embd))
        w.add_tensor(b + "ffn_norm.weight", ones(a.embd))
        w.add_tensor(b + "ffn_gate.weight", mat(a.ff, a.embd))
        w.add_tensor(b + "ffn_up.weight", mat(a.ff, a.embd))
        w.add_tensor(b + "ffn_down.weight", mat(a.embd, a.ff))

    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()
    os.replace(a.out + ".tmp", a.out)
    print(a.out)
    print(f"make_tiny_gguf.py: {n_vocab} tokens, {int(ok.sum())} emittable", file=sys.stderr)


if __name__ == "__main__":
    main()
