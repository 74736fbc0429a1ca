#!/usr/bin/env node
// Writes Parquet fixtures with the npm writer @dsnp/parquetjs (pinned in scripts/setup.sh), one
// per codec and page version it emits, and beside each <name>.json: the writer's own reader's
// view of it (column -> row values; nulls as null, repeated fields as arrays, timestamps as ms).
// (Its RLE encoding of INT32 values is left out: it is not in the Parquet spec, pyarrow refuses
// it as servebench does.)
//
//   SERVEBENCH_NPM_DIR=~/.cache/servebench/npm node make_npm_fixtures.js OUT_DIR [UNSUPPORTED_DIR]
'use strict';
const path = require('path');
const fs = require('fs');
const npmDir = process.env.SERVEBENCH_NPM_DIR ||
  path.join(process.env.HOME, '.cache/servebench/npm');
const parquet = require(path.join(npmDir, 'node_modules/@dsnp/parquetjs'));

const ROWS = 90;

function rows() {
  let seed = 11;
  const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const out = [];
  for (let i = 0; i < ROWS; i++) {
    const r = {
      id: BigInt(1000000 + i * 7),
      prompt: ['', 'hello', 'naïve café', 'tokens ' + i][i % 4],
      input_tokens: Math.floor(rnd() * 5000),
      ts: new Date(1700000000000 + i * 250),
      hashes: Array.from({length: Math.floor(rnd() * 5)}, () => BigInt(Math.floor(rnd() * 1e9))),
    };
    if (rnd() < 0.8) r.flag = rnd() < 0.5;
    if (rnd() < 0.8) r.score = Math.round(rnd() * 1e6) / 1e3;
    out.push(r);
  }
  return out;
}

function schema(codec) {
  return new parquet.ParquetSchema({
    id: {type: 'INT64', compression: codec},
    prompt: {type: 'UTF8', compression: codec},
    input_tokens: {type: 'INT32', compression: codec},
    ts: {type: 'TIMESTAMP_MILLIS', compression: codec},
    hashes: {type: 'INT64', repeated: true, compression: codec},
    flag: {type: 'BOOLEAN', optional: true, compression: codec},
    score: {type: 'DOUBLE', optional: true, compression: codec},
  });
}

function plain(v) {
  if (v === undefined || v === null) return null;
  if (typeof v === 'bigint') return Number(v);
  if (v instanceof Date) return v.getTime();
  if (Array.isArray(v)) return v.map(plain);
  return v;
}

async function dump(file) {
  const reader = await parquet.ParquetReader.openFile(file);
  const cursor = reader.getCursor();
  const names = ['id', 'prompt', 'input_tokens', 'ts', 'hashes', 'flag', 'score'];
  const out = Object.fromEntries(names.map((n) => [n, []]));
  let rec;
  while ((rec = await cursor.next())) {
    for (const n of names) {
      let v = plain(rec[n]);
      if (n === 'hashes' && v === null) v = [];
      out[n].push(v);
    }
  }
  await reader.close();
  return out;
}

// BROTLI, the one codec it writes that servebench refuses (by name): one small file for that test.
async function writeBrotli(file) {
  const s = new parquet.ParquetSchema({ok: {type: 'INT64', compression: 'BROTLI'}});
  const writer = await parquet.ParquetWriter.openFile(s, file);
  await writer.appendRow({ok: BigInt(1)});
  await writer.close();
}

async function main() {
  const outDir = process.argv[2];
  if (!outDir) throw new Error('usage: make_npm_fixtures.js OUT_DIR [UNSUPPORTED_DIR]');
  if (process.argv[3]) await writeBrotli(path.join(process.argv[3], 'parquetjs_brotli.parquet'));
  const data = rows();
  for (const codec of ['UNCOMPRESSED', 'GZIP', 'SNAPPY']) {
    for (const v2 of [false, true]) {
      const name = `parquetjs_${codec.toLowerCase()}_v${v2 ? 2 : 1}`;
      const file = path.join(outDir, name + '.parquet');
      const writer = await parquet.ParquetWriter.openFile(schema(codec), file,
                                                          {useDataPageV2: v2, rowGroupSize: 40});
      for (const r of data) await writer.appendRow(r);
      await writer.close();
      fs.writeFileSync(path.join(outDir, name + '.json'), JSON.stringify(await dump(file)));
    }
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
