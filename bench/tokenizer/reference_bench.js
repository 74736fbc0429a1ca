#!/usr/bin/env node
// Reference speed of HF tokenizers@0.23.2 (npm) on the same inputs as build/bin/bench_tokenizer:
// single-threaded encode of the whole Moby Dick text, encode line by line, and load time.
//   node bench/tokenizer/reference_bench.js [family...]
'use strict';
const fs = require('fs');
const path = require('path');
const { nm, repo, families } = require('../../scripts/tokenizer/common');
const { Tokenizer } = require(path.join(nm, 'tokenizers'));

const text = fs.readFileSync(path.join(repo, 'data/corpus/mobydick.txt'), 'utf8');
const lines = text.split(/(?<=\n)/);

async function bench(family) {
  const file = families[family];
  // CPU time (all threads of the process), comparable with Google Benchmark's CPU column on a
  // shared machine.
  const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1e6; };
  let c0 = cpu();
  let t0 = process.hrtime.bigint();
  const tok = Tokenizer.fromFile(file);
  const loadMs = Number(process.hrtime.bigint() - t0) / 1e6;
  const loadCpuMs = (cpu() - c0) * 1e3;
  const rss = process.memoryUsage().rss;
  let tokens = 0;
  await tok.encode(text, null, { addSpecialTokens: false });  // warm-up
  const reps = 3;
  c0 = cpu();
  for (let i = 0; i < reps; i++) tokens = (await tok.encode(text, null, { addSpecialTokens: false })).getIds().length;
  const wholeS = (cpu() - c0) / reps;
  c0 = cpu();
  let lineTokens = 0;
  for (const l of lines) lineTokens += (await tok.encode(l, null, { addSpecialTokens: false })).getIds().length;
  const linesS = cpu() - c0;
  console.log(`${family}: load ${loadMs.toFixed(0)} ms wall / ${loadCpuMs.toFixed(0)} ms CPU (rss ${(rss / 1e6).toFixed(0)} MB total), ` +
    `encode whole text ${(wholeS * 1e3).toFixed(0)} ms CPU = ${(tokens / wholeS / 1e6).toFixed(2)} M tokens/s, ` +
    `line by line ${(linesS * 1e3).toFixed(0)} ms CPU = ${(lineTokens / linesS / 1e6).toFixed(2)} M tokens/s (${tokens} tokens)`);
}

(async () => {
  const which = process.argv.slice(2);
  for (const f of (which.length ? which : ['qwen3', 'llama3', 'gpt4o', 'gpt2', 'gemma3', 'mistral_legacy', 'bert'])) await bench(f);
})();
