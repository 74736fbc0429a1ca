#!/usr/bin/env node
// Writes the long-word exactness fixtures next to this script with npm tokenizers@0.23.2 (Hugging
// Face's Rust implementation): inputs.jsonl, pathological texts of a few KB (one huge
// pre-tokenized piece each, or such pieces among ordinary words), and refs.jsonl, per family the
// number of ids and their FNV-1a 64 hash for every input (compact; long_word_test.cc compares).
// Run scripts/setup.sh first (fixtures), then: node tests/unit/tokenizer/long_words/make_refs.js
'use strict';
const fs = require('fs');
const path = require('path');
const { nm, families } = require('../../../../scripts/tokenizer/common');
const { Tokenizer } = require(path.join(nm, 'tokenizers'));

// xorshift32: the same inputs on every run.
let state = 0x9e3779b9;
function rand(n) {
  state ^= state << 13; state >>>= 0;
  state ^= state >>> 17;
  state ^= state << 5; state >>>= 0;
  return state % n;
}
const pick = (arr, count) => Array.from({ length: count }, () => arr[rand(arr.length)]).join('');
const lower = [...'abcdefghijklmnopqrstuvwxyz'];
const letters = [...lower, ...'ABCDEFGHIJKLMNOPQRSTUVWXYZ'];
const emoji = [...'😀🎉👍🚀🔥❤️✨🙂'];
const mixed = [...letters, ...'0123456789', ...'.,;:-_/\\()[]{}<>!?@#$%^&*+=~`|\'"', ...'中文字日本語한국어éüñßøåçΩπд',
  ...emoji];

function inputs() {
  return [
    'a'.repeat(3000),
    'A'.repeat(3000),
    ' ' + 'z'.repeat(2999),
    pick(lower, 3000),
    pick(letters, 3000),
    'abc'.repeat(1000),
    'é'.repeat(1500),
    '中'.repeat(1000),
    '😀'.repeat(800),
    pick(emoji, 700),
    pick(mixed, 2000),
    '!'.repeat(2000) + '?'.repeat(1000),
    '1'.repeat(2000),
    'hello ' + 'a'.repeat(1200) + ' world, ' + pick(lower, 900) + ' and ' + '🎉'.repeat(300) + ' end.',
  ];
}

function fnv64(ids) {
  let h = 0xcbf29ce484222325n;
  for (const id of ids) {
    for (let b = 0; b < 4; b++) {
      h ^= BigInt((id >>> (8 * b)) & 0xff);
      h = (h * 0x100000001b3n) & 0xffffffffffffffffn;
    }
  }
  return h.toString(16).padStart(16, '0');
}

(async () => {
  const dir = __dirname;
  const texts = inputs();
  fs.writeFileSync(path.join(dir, 'inputs.jsonl'), texts.map((t) => JSON.stringify(t)).join('\n') + '\n');
  const lines = [];
  for (const [family, file] of Object.entries(families)) {
    const tok = Tokenizer.fromFile(file);
    const results = [];
    for (const t of texts) {
      const ids = Array.from((await tok.encode(t, null, { addSpecialTokens: false })).getIds());
      results.push({ count: ids.length, hash: fnv64(ids) });
    }
    lines.push(JSON.stringify({ family, tokenizers: '0.23.2', results }));
    console.error(`make_refs: ${family}`);
  }
  fs.writeFileSync(path.join(dir, 'refs.jsonl'), lines.join('\n') + '\n');
})().catch((e) => { console.error(`make_refs: ${e.message}`); process.exit(1); });
