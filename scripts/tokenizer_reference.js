#!/usr/bin/env node
// Generates the exactness references under tests/data/tokenizer/ref/<family>.jsonl with npm
// tokenizers@0.23.2 (Hugging Face's own Rust implementation), for every string of
// tests/data/tokenizer/corpus.jsonl. Run `scripts/setup.sh` first (fixtures), then
//   node scripts/tokenizer_reference.js [family...]      (or: make -C tests/data/tokenizer)
//
// File format (compact): line 1 is a header {"family","tokenizers","strings","prefix","suffix"}
// where prefix/suffix are the ids add_special_tokens wraps around every text. Then one line per
// corpus string: either a bare JSON array (the ids without special tokens; the special-token
// encoding is prefix+ids+suffix and decode(ids) == the string), or an object
// {"ids":[...], "special":[...] (if not the wrap), "decoded":"..." (if decode(ids) != string)}.
'use strict';
const fs = require('fs');
const path = require('path');
const { nm, dataDir, families } = require('./tokenizer/common');

let Tokenizer;
try {
  ({ Tokenizer } = require(path.join(nm, 'tokenizers')));
} catch (e) {
  console.error(`tokenizer_reference: npm tokenizers missing under ${nm}; run scripts/setup.sh`);
  process.exit(1);
}

function eq(a, b) {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

async function run(family) {
  const file = families[family];
  if (!fs.existsSync(file)) throw new Error(`${family}: ${file} missing; run scripts/setup.sh`);
  const tok = Tokenizer.fromFile(file);
  const corpus = fs.readFileSync(path.join(dataDir, 'corpus.jsonl'), 'utf8').split('\n').filter((l) => l.length).map((l) => JSON.parse(l));
  const enc = async (s, special) => Array.from((await tok.encode(s, null, { addSpecialTokens: special })).getIds());
  const probe = await enc('a', false);
  const probeSp = await enc('a', true);
  let at = -1;
  for (let i = 0; i + probe.length <= probeSp.length; i++) if (eq(probeSp.slice(i, i + probe.length), probe)) { at = i; break; }
  const prefix = probeSp.slice(0, at);
  const suffix = probeSp.slice(at + probe.length);
  const lines = [JSON.stringify({ family, tokenizers: '0.23.2', strings: corpus.length, prefix, suffix })];
  let odd = 0;
  for (const s of corpus) {
    const ids = await enc(s, false);
    const sp = await enc(s, true);
    const dec = await tok.decode(ids, false);
    const wrapped = prefix.concat(ids, suffix);
    if (eq(sp, wrapped) && dec === s) {
      lines.push(JSON.stringify(ids));
    } else {
      const o = { ids };
      if (!eq(sp, wrapped)) o.special = sp;
      if (dec !== s) o.decoded = dec;
      lines.push(JSON.stringify(o));
      odd++;
    }
  }
  const outDir = path.join(dataDir, 'ref');
  fs.mkdirSync(outDir, { recursive: true });
  fs.writeFileSync(path.join(outDir, `${family}.jsonl`), lines.join('\n') + '\n');
  console.error(`tokenizer_reference: ${family}: ${corpus.length} strings (${odd} with non-trivial special/decode)`);
}

(async () => {
  const which = process.argv.slice(2);
  for (const f of (which.length ? which : Object.keys(families))) await run(f);
})().catch((e) => { console.error(`tokenizer_reference: ${e.message}`); process.exit(1); });
