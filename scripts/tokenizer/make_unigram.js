#!/usr/bin/env node
// Regenerates tests/data/tokenizer/unigram-mobydick/tokenizer.json: a small Unigram model
// trained with Debian's sentencepiece on the vendored public-domain Moby Dick text:
//   spm_train --input=data/corpus/mobydick.txt --model_prefix=moby --vocab_size=2000 \
//     --model_type=unigram --normalization_rule_name=identity --character_coverage=1.0 \
//     --num_threads=1
//   spm_export_vocab --model=moby.model --output=moby.vocab --output_format=vocab
//   node scripts/tokenizer/make_unigram.js moby.vocab
// The pipeline around it (NFKC + regex Replace normalizer, Metaspace, T5-style </s> template)
// exercises components the other families do not.
'use strict';
const fs = require('fs');
const path = require('path');
const { dataDir } = require('./common');
const vocab = fs.readFileSync(process.argv[2], 'utf8').split('\n').filter((l) => l.length)
  .map((l) => { const [p, s] = l.split('\t'); return [p, Number(s)]; });
const dir = path.join(dataDir, 'unigram-mobydick');
fs.mkdirSync(dir, { recursive: true });
const added = (id, content) => ({ id, content, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true });
fs.writeFileSync(path.join(dir, 'tokenizer.json'), JSON.stringify({
  version: '1.0', truncation: null, padding: null,
  added_tokens: [added(0, '<unk>'), added(1, '<s>'), added(2, '</s>')],
  normalizer: { type: 'Sequence', normalizers: [{ type: 'NFKC' },
    { type: 'Replace', pattern: { Regex: ' {2,}' }, content: ' ' }] },
  pre_tokenizer: { type: 'Metaspace', replacement: '▁', prepend_scheme: 'always', split: true },
  post_processor: { type: 'TemplateProcessing',
    single: [{ Sequence: { id: 'A', type_id: 0 } }, { SpecialToken: { id: '</s>', type_id: 0 } }],
    pair: [{ Sequence: { id: 'A', type_id: 0 } }, { SpecialToken: { id: '</s>', type_id: 0 } },
      { Sequence: { id: 'B', type_id: 1 } }, { SpecialToken: { id: '</s>', type_id: 1 } }],
    special_tokens: { '</s>': { id: '</s>', ids: [2], tokens: ['</s>'] } } },
  decoder: { type: 'Metaspace', replacement: '▁', prepend_scheme: 'always', split: true },
  model: { type: 'Unigram', unk_id: 0, vocab, byte_fallback: false },
}));
console.error(`wrote ${dir}/tokenizer.json (${vocab.length} pieces)`);
