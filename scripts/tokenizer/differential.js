#!/usr/bin/env node
// Random-Unicode differential test: N random strings (seeded) through HF tokenizers@0.23.2 and
// `servebench tokenize --jsonl`, printing every string whose ids differ with its code points.
//   node scripts/tokenizer/differential.js [--n 3000] [--seed 7] [--bin build/bin/servebench] [family...]
// Exit 1 when any family differs. Families as in scripts/tokenizer/common.js, plus "builtin"
// (compared with gpt4o's reference).
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const { execFileSync } = require('child_process');
const { nm, repo, families } = require('./common');
const { Tokenizer } = require(path.join(nm, 'tokenizers'));

const args = process.argv.slice(2);
const opt = (name, def) => { const i = args.indexOf(name); if (i < 0) return def; const v = args[i + 1]; args.splice(i, 2); return v; };
const n = Number(opt('--n', '3000'));
let seed = Number(opt('--seed', '7'));
const bin = opt('--bin', path.join(repo, 'build/bin/servebench'));
const which = args.length ? args : ['builtin', 'gpt4', 'qwen3', 'llama3', 'gpt2', 'deepseek_v3', 'gemma3', 'mistral_legacy', 'llama2_metaspace', 'bert', 'unigram', 'unigram_nfkc'];

function rnd() { seed |= 0; seed = (seed + 0x6D2B79F5) | 0; let t = Math.imul(seed ^ (seed >>> 15), 1 | seed); t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t; return ((t ^ (t >>> 14)) >>> 0) / 4294967296; }
const int = (lo, hi) => lo + Math.floor(rnd() * (hi - lo + 1));
function randomString() {
  let s = '';
  const len = int(1, 16);
  for (let k = 0; k < len; k++) {
    const r = rnd();
    let cp;
    if (r < 0.15) cp = int(0x20, 0x7e);
    else if (r < 0.2) cp = int(0, 0x20);
    else if (r < 0.7) cp = int(0xa0, 0xffff);
    else if (r < 0.95) cp = int(0x10000, 0x3ffff);
    else cp = int(0xe0000, 0xe01ef);
    if (cp >= 0xd800 && cp < 0xe000) cp = 0x20;
    s += String.fromCodePoint(cp);
    if (rnd() < 0.1) s += ' ';
  }
  return s;
}

(async () => {
  const strings = Array.from({ length: n }, randomString);
  const input = path.join(os.tmpdir(), `sb_diff_${process.pid}.jsonl`);
  fs.writeFileSync(input, strings.map((s) => JSON.stringify(s)).join('\n') + '\n');
  let bad = 0;
  for (const family of which) {
    const file = family === 'builtin' ? families.gpt4o : families[family];
    const tok = Tokenizer.fromFile(file);
    const ours = execFileSync(bin, ['tokenize', '--tokenizer', family === 'builtin' ? 'builtin' : file, '--jsonl', '--file', input],
      { maxBuffer: 1 << 28 }).toString().split('\n').filter((l) => l.length);
    let diff = 0;
    for (let i = 0; i < strings.length; i++) {
      const want = JSON.stringify(Array.from((await tok.encode(strings[i], null, { addSpecialTokens: false })).getIds()));
      if (want !== ours[i]) {
        if (++diff <= 5) {
          const cps = Array.from(strings[i]).map((c) => 'U+' + c.codePointAt(0).toString(16).toUpperCase()).join(' ');
          console.log(`${family}: ${JSON.stringify(strings[i])} [${cps}]\n  want ${want}\n  got  ${ours[i]}`);
        }
      }
    }
    console.log(`${family}: ${n - diff}/${n} identical`);
    bad += diff;
  }
  fs.unlinkSync(input);
  process.exit(bad ? 1 : 0);
})();
