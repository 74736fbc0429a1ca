#!/usr/bin/env node
// Regenerates tests/data/tokenizer/corpus.jsonl: the exactness corpus (one JSON string per line),
// deterministic (seeded), built from the vendored Moby Dick text plus hand-written and random
// cases: prose, code, numbers, whitespace runs, tabs/newlines, emoji/ZWJ, CJK, combining marks,
// RTL, control characters, special-token strings inside text, very long words, random Unicode.
'use strict';
const fs = require('fs');
const path = require('path');
const { repo, dataDir } = require('./common');

let seed = 0x5eed1234;
function rnd() {  // mulberry32
  seed |= 0; seed = (seed + 0x6D2B79F5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const pick = (a) => a[Math.floor(rnd() * a.length)];
const int = (lo, hi) => lo + Math.floor(rnd() * (hi - lo + 1));
const out = [];
const add = (s) => out.push(s);

// Prose.
const moby = fs.readFileSync(path.join(repo, 'data/corpus/mobydick.txt'), 'utf8').split(/\r?\n/);
const lines = moby.filter((l) => l.trim().length > 0);
for (let i = 0; i < 500; i++) add(lines[Math.floor(i * lines.length / 500)]);
for (let i = 0; i < 80; i++) { const s = int(0, moby.length - 12); add(moby.slice(s, s + int(2, 10)).join('\n')); }

// Code.
const code = [
  'def fib(n):\n    return n if n < 2 else fib(n-1) + fib(n-2)\n',
  'for (int i = 0; i < n; ++i) {\n\tsum += a[i] * b[i];\n}',
  'const x = await fetch(`https://example.com/api?q=${encodeURIComponent(q)}`);',
  '#include <stdio.h>\nint main(void) { printf("hello, %s\\n", "world"); return 0; }',
  'SELECT id, name FROM users WHERE created_at >= \'2024-01-01\' ORDER BY id DESC LIMIT 10;',
  '{"key": [1, 2.5, -3e10, true, null], "nested": {"a": "b\\u00e9"}}',
  '<div class="x" id=\'y\'><span>&lt;tag&gt; &amp; text</span></div>',
  'fn main() -> Result<(), Box<dyn Error>> { let v: Vec<u8> = vec![0xFF; 16]; Ok(()) }',
  '    if (err != nil) {\n        return fmt.Errorf("wrap: %w", err)\n    }',
  'x = [i**2 for i in range(10) if i % 3 == 0]  # squares',
  '$ grep -rn "TODO" src/ | wc -l && echo done || exit 1',
  'a += b; a -= c; a *= d; a /= e; a %= f; a <<= 1; a >>= 2; a &&= g; a ||= h;',
  'public static void main(String[] args) throws IOException {}',
  '// comment\n/* block\n   comment */\n/// doc comment',
  'matrix[i][j] = matrix[i-1][j-1] + (s[i] == t[j] ? 0 : 1);',
  'import numpy as np\narr = np.zeros((3, 4), dtype=np.float32)\n\n\n',
  '```python\nprint("hi")\n```',
  'key: value\nlist:\n  - a\n  - b\n\t- tabbed',
  'https://user:pass@host.example.org:8080/path/to/file.html?query=1&b=2#frag',
  'email@example.com, first.last+tag@sub.domain.co.uk',
];
for (let i = 0; i < 160; i++) {
  const c = pick(code);
  const indent = pick(['', '  ', '    ', '\t', '\t\t', '        ']);
  add(c.split('\n').map((l) => indent + l).join(pick(['\n', '\r\n', '\n\n'])));
}

// Numbers.
for (let i = 0; i < 160; i++) {
  const kinds = [
    () => String(int(0, 9)), () => String(int(0, 999999999)), () => String(int(0, 99999)) + '.' + String(int(0, 99999)),
    () => (rnd() * 1e6).toFixed(int(0, 6)), () => `${int(1, 12)}/${int(1, 28)}/${int(1900, 2100)}`,
    () => `+1 (${int(200, 999)}) ${int(200, 999)}-${int(1000, 9999)}`, () => Number(int(0, 1e9)).toLocaleString('en-US'),
    () => `${rnd().toExponential(int(1, 8))}`, () => '1'.repeat(int(1, 40)), () => `v${int(0, 9)}.${int(0, 99)}.${int(0, 999)}`,
    () => `${int(0, 255)}.${int(0, 255)}.${int(0, 255)}.${int(0, 255)}`, () => `0x${int(0, 0xffffff).toString(16)}`,
    () => `${int(10, 99)}% of ${int(100, 999)} is ${int(1, 999)}`, () => '٠١٢٣٤٥٦٧٨٩ ०१२३ ①②③ Ⅻ ½ ²³',
  ];
  add(pick(kinds)());
}

// Whitespace runs, tabs, newlines.
const ws = [' ', '  ', '   ', '\t', '\n', '\r\n', '\n\n', ' \n ', '\t\t', '\u00a0', '\u3000', '\u2003', '\u2009', '\u200b'];
for (let i = 0; i < 160; i++) {
  let s = '';
  const n = int(1, 8);
  for (let k = 0; k < n; k++) s += (rnd() < 0.5 ? pick(ws).repeat(int(1, 6)) : pick(['word', 'a', 'The', 'x1', 'é', '日本', '!', '...']));
  add(s);
}
['', ' ', '  ', '\n', '\t', ' a', 'a ', '  leading', 'trailing  ', '\n\nx\n\n', ' '.repeat(50), '\n'.repeat(20)].forEach(add);

// Emoji and ZWJ sequences.
const emoji = ['😀', '👍🏽', '👨‍👩‍👧‍👦', '🏳️‍🌈', '🇺🇸', '🇯🇵', '1️⃣', '❤️', '🧑🏿‍💻', '👩‍❤️‍💋‍👨', '🫠', '🪿', '🫨', '🐈‍⬛', '☃︎', '✌🏻', '🤷‍♀️', '🏴󠁧󠁢󠁳󠁣󠁴󠁿'];
for (let i = 0; i < 160; i++) {
  let s = '';
  const n = int(1, 6);
  for (let k = 0; k < n; k++) s += pick(emoji) + (rnd() < 0.5 ? pick([' ', '', 'ok ', ' and ', '!']) : '');
  add(s);
}

// CJK.
const cjk = ['我爱自然语言处理。', '今天天气很好，我们去公园吧！', '東京は日本の首都です。', 'ひらがなとカタカナ、漢字。',
  '한국어 문장도 테스트합니다.', '中文English混合mixed文本123', '『鯨』とは何か？', '𠀀𠀁𪜀 rare ideographs 𫝀', '【注意】価格は¥1,000です',
  '一二三四五六七八九十百千万亿', 'ｆｕｌｌｗｉｄｔｈ　ＡＢＣ　１２３', '㍿ ㌔ ㎏ ㈱'];
for (let i = 0; i < 160; i++) add(pick(cjk) + (rnd() < 0.5 ? pick(cjk) : '') + (rnd() < 0.3 ? ' ' + pick(lines) : ''));

// Combining marks, accents, scripts.
const marks = ['e\u0301', 'a\u0308', 'n\u0303', 'Z\u0335\u0321\u0322a\u0337\u0327l\u0336g\u0338o\u0334', 'Tiếng Việt có dấu',
  'हिन्दी भाषा', 'ภาษาไทยไม่มีช่องว่าง', 'Ελληνικά ΣΊΣΥΦΟΣ σοφός', 'Русский текст, ёжик', 'İstanbul ıi İI', 'Straße ẞ ß',
  'café vs cafe\u0301', 'ﬁ ﬂ ﬀ ligatures', 'Å Å Ω Ω', 'ǅ ǈ ǋ titlecase', 'ſ long s', 'KELVIN K and K', '각 jamo'];
for (let i = 0; i < 120; i++) add(pick(marks) + (rnd() < 0.5 ? ' ' + pick(marks) : ''));

// RTL.
const rtl = ['مرحبا بالعالم', 'שלום עולם', 'العدد ١٢٣ والعدد 456', 'עברית עם English ו-123', '\u200fמימין\u200e left',
  'فارسی: سلام دنیا', 'اردو زبان', '\u202eevil override\u202c'];
for (let i = 0; i < 100; i++) add(pick(rtl) + (rnd() < 0.4 ? ' ' + pick(rtl) : ''));

// Control characters.
for (let i = 0; i < 100; i++) {
  let s = '';
  const n = int(1, 6);
  for (let k = 0; k < n; k++) {
    s += rnd() < 0.5 ? String.fromCodePoint(pick([0, 1, 7, 8, 0xb, 0xc, 0x1b, 0x1f, 0x7f, 0x85, 0x9f, 0xad, 0xfeff, 0x200d, 0x2028, 0x2029, 0xfffd, 0xe000, 0xf8ff])) : pick(['a', 'text', ' ', '\n']);
  }
  add(s);
}

// Special-token strings inside text.
const specials = ['<|endoftext|>', '<|endofprompt|>', '<|im_start|>', '<|im_end|>', '<s>', '</s>', '<unk>', '<bos>', '<eos>', '<pad>',
  '<start_of_turn>', '<end_of_turn>', '[CLS]', '[SEP]', '[MASK]', '[PAD]', '<|begin_of_text|>', '<|eot_id|>', '<|start_header_id|>',
  '<｜begin▁of▁sentence｜>', '<｜end▁of▁sentence｜>', '<|fim_prefix|>', '<think>', '</think>', '<|reserved_special_token_5|>', '<mask>'];
for (let i = 0; i < 200; i++) {
  const a = pick(['hello', 'The whale', '', ' ', 'x', '日本', 'code(', '\n']);
  const b = pick(['world', '', ' after', '\nnext', 'y', ' 123']);
  add(a + pick(['', ' ']) + pick(specials) + pick(['', ' ', '  ']) + b + (rnd() < 0.3 ? pick(specials) : ''));
}
add('<|im_start|>system\nYou are helpful.<|im_end|>\n<|im_start|>user\nHi!<|im_end|>\n<|im_start|>assistant\n');
add('<|begin_of_text|><|start_header_id|>user<|end_header_id|>\n\nHello<|eot_id|>');

// Very long words and runs.
['a'.repeat(1000), 'ab'.repeat(400), 'supercalifragilisticexpialidocious'.repeat(20), '9'.repeat(300), ' '.repeat(500),
  '\n'.repeat(200), '\t'.repeat(100), '😀'.repeat(100), '日'.repeat(300), 'x'.repeat(257), '-'.repeat(300), '='.repeat(120),
  'Pneumonoultramicroscopicsilicovolcanoconiosis', 'Llanfairpwllgwyngyllgogerychwyrndrobwllllantysiliogogogoch',
  'ThisIsAVeryLongCamelCaseIdentifierThatKeepsGoingAndGoing'.repeat(5), 'a_b_c_d_e_f_g_h_'.repeat(30), '.'.repeat(1000),
].forEach(add);
for (let i = 0; i < 30; i++) {
  let w = '';
  const n = int(100, 800);
  for (let k = 0; k < n; k++) w += String.fromCharCode(97 + int(0, 25));
  add(w);
}

// Contractions and casing.
["I'm", "don't", "He'LL", "we've", "THEY'RE", "it's", "y'all'd've", "'s", " 's", "O'Neil's", "rock 'n' roll", "I'M", "IT'S", "'tis"].forEach(add);

// Random Unicode (differential): code points from many blocks, newer ones included.
const ranges = [[0x20, 0x7e], [0xa0, 0x24f], [0x300, 0x36f], [0x370, 0x3ff], [0x400, 0x4ff], [0x590, 0x6ff], [0x900, 0x97f],
  [0xe00, 0xe7f], [0x1100, 0x11ff], [0x1e00, 0x1fff], [0x2000, 0x206f], [0x2070, 0x2bff], [0x3000, 0x30ff], [0x4e00, 0x9fff],
  [0xac00, 0xd7a3], [0xe000, 0xe0ff], [0xfb00, 0xfdff], [0xfe00, 0xffef], [0x10000, 0x1007f], [0x1d400, 0x1d7ff],
  [0x1f300, 0x1faff], [0x20000, 0x2a6df], [0x2b740, 0x2b81f], [0x30000, 0x3134a], [0x31350, 0x323af], [0x2ebf0, 0x2ee5f],
  [0x1e4d0, 0x1e4f9], [0x11f00, 0x11f59], [0x1fae0, 0x1faf8], [0x0, 0x1f], [0xe0000, 0xe007f]];
for (let i = 0; i < 400; i++) {
  let s = '';
  const n = int(1, 24);
  for (let k = 0; k < n; k++) {
    const [lo, hi] = pick(ranges);
    s += String.fromCodePoint(int(lo, hi));
    if (rnd() < 0.15) s += ' ';
  }
  add(s);
}

// llama.cpp's hard cases (tests/data/tokenizer/llama.cpp/*.inp), deduplicated, appended last so
// earlier indices stay stable.
const seen = new Set(out);
for (const f of fs.readdirSync(path.join(dataDir, 'llama.cpp')).filter((n) => n.endsWith('.inp')).sort()) {
  for (const s of fs.readFileSync(path.join(dataDir, 'llama.cpp', f), 'utf8').split('\n__ggml_vocab_test__\n')) {
    if (!seen.has(s)) { seen.add(s); add(s); }
  }
}

fs.mkdirSync(dataDir, { recursive: true });
fs.writeFileSync(path.join(dataDir, 'corpus.jsonl'), out.map((s) => JSON.stringify(s)).join('\n') + '\n');
console.error(`make_corpus: ${out.length} strings`);
