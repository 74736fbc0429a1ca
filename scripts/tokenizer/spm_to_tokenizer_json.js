#!/usr/bin/env node
// Converts a SentencePiece Unigram .model (protobuf) into a tokenizer.json the way HF's
// converters do: Precompiled charsmap + Replace(" {2,}") normalizer, Metaspace, Unigram with
// byte fallback. Regenerates tests/data/tokenizer/unigram-nfkc/tokenizer.json:
//   spm_train --input=data/corpus/mobydick.txt --model_prefix=moby_nfkc --vocab_size=1000 \
//     --model_type=unigram --character_coverage=1.0 --num_threads=1 --byte_fallback=true
//   node scripts/tokenizer/spm_to_tokenizer_json.js moby_nfkc.model
'use strict';
const fs = require('fs');
const path = require('path');
const { dataDir } = require('./common');

function* fields(buf) {  // minimal protobuf reader: [field, wiretype, value]
  let i = 0;
  const varint = () => { let v = 0n, s = 0n; for (;;) { const b = buf[i++]; v |= BigInt(b & 0x7f) << s; if (!(b & 0x80)) return v; s += 7n; } };
  while (i < buf.length) {
    const key = Number(varint());
    const f = key >> 3, w = key & 7;
    if (w === 0) yield [f, w, varint()];
    else if (w === 1) { yield [f, w, buf.subarray(i, i + 8)]; i += 8; }
    else if (w === 2) { const n = Number(varint()); yield [f, w, buf.subarray(i, i + n)]; i += n; }
    else if (w === 5) { yield [f, w, buf.subarray(i, i + 4)]; i += 4; }
    else throw new Error(`wire type ${w}`);
  }
}

const model = fs.readFileSync(process.argv[2]);
const vocab = [];
let unkId = 0;
let charsmap = null;
for (const [f, , v] of fields(model)) {
  if (f === 1) {
    let piece = '', score = 0, type = 1;
    for (const [g, , x] of fields(v)) {
      if (g === 1) piece = Buffer.from(x).toString('utf8');
      if (g === 2) score = Buffer.from(x).readFloatLE(0);
      if (g === 3) type = Number(x);
    }
    if (type === 2) unkId = vocab.length;
    vocab.push([piece, type === 3 || type === 2 ? 0 : score]);
  } else if (f === 3) {
    for (const [g, , x] of fields(v)) if (g === 2) charsmap = Buffer.from(x).toString('base64');
  }
}
const added = (id, content) => ({ id, content, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true });
const dir = path.join(dataDir, 'unigram-nfkc');
fs.mkdirSync(dir, { recursive: true });
fs.writeFileSync(path.join(dir, 'tokenizer.json'), JSON.stringify({
  version: '1.0', truncation: null, padding: null,
  added_tokens: [added(0, vocab[0][0]), added(1, vocab[1][0]), added(2, vocab[2][0])],
  normalizer: { type: 'Sequence', normalizers: [{ type: 'Precompiled', precompiled_charsmap: charsmap },
    { type: 'Replace', pattern: { Regex: ' {2,}' }, content: ' ' }] },
  pre_tokenizer: { type: 'Metaspace', replacement: '▁', prepend_scheme: 'always', split: true },
  post_processor: { type: 'TemplateProcessing',
    single: [{ SpecialToken: { id: '<s>', type_id: 0 } }, { Sequence: { id: 'A', type_id: 0 } }],
    pair: [{ Sequence: { id: 'A', type_id: 0 } }, { Sequence: { id: 'B', type_id: 1 } }],
    special_tokens: { '<s>': { id: '<s>', ids: [1], tokens: ['<s>'] } } },
  decoder: { type: 'Sequence', decoders: [{ type: 'Metaspace', replacement: '▁', prepend_scheme: 'always', split: true },
    { type: 'ByteFallback' }, { type: 'Fuse' }] },
  model: { type: 'Unigram', unk_id: unkId, vocab, byte_fallback: true },
}));
console.error(`wrote ${dir}/tokenizer.json (${vocab.length} pieces, charsmap ${charsmap ? charsmap.length : 0} base64 chars)`);
