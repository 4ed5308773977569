// Writes what the C++ BPE tests compare against, all computed by code HeadLab did not write:
//   bpe_cases.jsonl   one JSON array a line: [text, ids, gpt2 pieces, gpt2-cjk pieces] where ids come
//                     from the npm package gpt-3-encoder's encode() and the pieces from Node's own
//                     regular expression (GPT-2's pattern; for gpt2-cjk on each stretch between CJK characters);
//   char_classes.txt  one letter per code point 0..0x10FFFF: L (\p{L}), N (\p{N}), S (\s), O (other),
//                     as Node's `u`-flag regular expressions class them.
// The lines are generated from a fixed seed, so every run writes the same files.
//   node bpe_reference.mjs GPT_3_ENCODER_DIR OUT_DIR [LINE_COUNT]
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';

const [encoderDir, outDir, countArg] = process.argv.slice(2);
if (!encoderDir || !outDir) {
  console.error('usage: node bpe_reference.mjs GPT_3_ENCODER_DIR OUT_DIR [LINE_COUNT]');
  process.exit(2);
}
const { encode } = createRequire(import.meta.url)(path.resolve(encoderDir, 'index.js'));
const lineCount = Number(countArg || 12000);

// mulberry32: a small seeded generator, so the lines are the same on every machine.
let seed = 0x5eed2024;
function random() {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const pick = (list) => list[Math.floor(random() * list.length)];
const between = (lo, hi) => lo + Math.floor(random() * (hi - lo + 1));

const words = ('the quick brown fox jumps over lazy dog My grandmother baked fresh bread for neighbours yesterday ' +
  'She said that he would come but never did attention head token model Hello World THE A I an of to in is ' +
  'naïve café résumé Ångström façade coöperate Tiếng Việt Straße Æsir œuvre São Paulo Zürich').split(' ');
const contractions = ["it's", "don't", "I'm", "we're", "they've", "you'll", "he'd", "IT'S", "it'S", "O'Neil",
  "rock'n'roll", "'s", "'t", "'re", "'ve", "'m", "'ll", "'d", "'", "''", "can't've", "it\u2019s", "y'all'd"];
const chinese = ['我', '喜欢', '自然', '语言', '处理', '注意力', '头', '模型', '你好', '世界', '中文', '的', '了', '是',
  '机器学习', '龍', '𠀀', '𪚥', '㐀', '豈', '〇', '丶'];
const cjkPunctuation = ['，', '。', '！', '？', '、', '「', '」', '《', '》', '（', '）', '：', '；', '\u3000', '〜',
  'Ａ', 'ｂ', '１２３', '％', '．', 'ｶﾀｶﾅ'];
const otherScripts = ['Привет', 'мир', 'Γειά', 'σου', 'مرحبا', 'שלום', 'हिन्दी', 'नमस्ते', 'こんにちは', 'カタカナ',
  '안녕하세요', 'สวัสดี', 'ქართული', 'Հայերեն', 'ᚠᚢᚦ', 'ꓐꓑ', '𐐷𐑌', 'ﷺ', 'ǅungla', 'ʰʲ'];
const emoji = ['😀', '👍🏽', '👩‍👩‍👧', '🇨🇳', '🇬🇧', '❤️', '🧑🏿‍🚀', '🫠', '✨', '🔥🔥', '👋', '©', '™', '∑', '√2',
  '\u{1F3F3}\u{FE0F}\u{200D}\u{1F308}'];
const numbers = ['0', '7', '42', '2024', '3.14159', '1,000,000', '-5', '+1', '٣٤', '१२३', '½', '²', 'Ⅻ', '⑦', '10%',
  '1st', '2nd', 'x86', 'v1.2.3', '0xFF', '𝟘𝟙'];
const punctuation = ['.', ',', '!', '?', '...', '—', '–', '-', '«', '»', '“', '”', '"', '(', ')', '[', ']', '{', '}',
  '#', '@', '$', '€', '£', '¥', '&', '*', '/', '\\', '|', '~', '^', '_', '=', '<', '>', ':', ';', '¿', '¡', '·', '‽',
  '<|endoftext|>'];
const spaces = [' ', ' ', ' ', '  ', '   ', '\t', '\t\t', '\n', '\n\n', '\r\n', ' \n ', '\u00a0', '\u2003', '\u2028',
  '\ufeff', '\u0085', '\u000b', '\u000c', '\u180e', '\u200b', '\u3000', ' \t ', '    \n'];
const combining = ['e\u0301', 'a\u0308', 'n\u0303', '\u0301', 'o\u0302\u0323'];

// A code point drawn from anywhere (assigned or not), surrogates excluded: tests the classes.
function anyCodePoint() {
  const planes = [[0x20, 0x2fff], [0x3000, 0xd7ff], [0xe000, 0xffff], [0x10000, 0x1ffff], [0x20000, 0x3ffff],
    [0xe0000, 0x10ffff]];
  const [lo, hi] = pick(planes);
  return String.fromCodePoint(between(lo, hi));
}
// Letters and numbers new in Unicode 15.1-17.0, which utf8proc 2.8.0 does not know.
const newerLetters = ['\u{2EBF0}', '\u{323B0}', '\u{11380}', '\u{16D40}', '\u{1E6C0}', '\u{10D40}', '\u{116D0}',
  '\u{11BF0}', '\u{16130}', '\u{1CCF0}', '\u{105C0}', '\u{13460}'];

const generators = [
  [10, () => pick(words)], [4, () => pick(contractions)], [5, () => pick(chinese)], [2, () => pick(cjkPunctuation)],
  [3, () => pick(otherScripts)], [2, () => pick(emoji)], [3, () => pick(numbers)], [4, () => pick(punctuation)],
  [2, () => pick(combining)], [1, anyCodePoint], [0.3, () => pick(newerLetters)],
];
const totalWeight = generators.reduce((sum, [w]) => sum + w, 0);
function part() {
  let x = random() * totalWeight;
  for (const [w, make] of generators) if ((x -= w) < 0) return make();
  return generators[0][1]();
}
function line() {
  const parts = between(1, 24);
  let text = random() < 0.3 ? pick(spaces) : '';
  for (let i = 0; i < parts; ++i) {
    text += part();
    const r = random();
    if (r < 0.55) text += ' ';
    else if (r < 0.75) text += pick(spaces);
  }
  return text;
}

const fixed = ['', ' ', '  ', 'a', 'Hello world', "it's here, isn't it? They'll've", 'a  b', 'a   b', 'a \tb', '\t\ta',
  'end   ', 'x\n\n\ny', '  !', ' 中', '  中', '中 文', 'a \t中', '使用 apt 命令', 'x\n\n中', '\u3000中\u3000',
  'ab１２cd', '１２３abc', "'s'S's", "I'M FINE",
  '我喜欢自然语言处理。', 'Hello, 世界! 👋🏽', '1234567890', '3.14 + 2.71 = 5.85', 'ﬁne ﬂow', '👩‍👩‍👧 family',
  'naïve café', 'e\u0301e\u0301', '\u0301\u0301a', '  \u00a0 x', 'tab\there', 'new\r\nline', '<|endoftext|>The',
  '   leading spaces', 'trailing spaces   ', '!!!???', '……', '— dash —', 'مرحبا بالعالم', 'שָׁלוֹם'];
const texts = [...fixed];
while (texts.length < lineCount) texts.push(line());

const pieces = (text, pattern) => Array.from(text.matchAll(pattern), (m) => m[0]);
// gpt2-cjk: each CJK character a piece, GPT-2's pattern on each stretch between them.
const cjk = /[\u3400-\u4DBF\u4E00-\u9FFF\uF900-\uFAFF\u{20000}-\u{2FA1F}\u3000-\u303F\uFF00-\uFFEF]/u;
const gpt2Pattern = /'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+/gu;
function cjkPieces(text) {
  const out = [];
  let stretch = '';
  for (const ch of text) {
    if (!cjk.test(ch)) { stretch += ch; continue; }
    out.push(...pieces(stretch, gpt2Pattern), ch);
    stretch = '';
  }
  out.push(...pieces(stretch, gpt2Pattern));
  return out;
}

fs.mkdirSync(outDir, { recursive: true });
const out = texts.map((text) => JSON.stringify([text, encode(text), pieces(text, gpt2Pattern), cjkPieces(text)]));
fs.writeFileSync(path.join(outDir, 'bpe_cases.jsonl'), out.join('\n') + '\n');

const L = /\p{L}/u, N = /\p{N}/u, S = /\s/u;
const classes = new Array(0x110000);
for (let c = 0; c < 0x110000; ++c) {
  if (c >= 0xd800 && c <= 0xdfff) { classes[c] = 'O'; continue; }  // no character in UTF-8
  const s = String.fromCodePoint(c);
  classes[c] = L.test(s) ? 'L' : N.test(s) ? 'N' : S.test(s) ? 'S' : 'O';
}
fs.writeFileSync(path.join(outDir, 'char_classes.txt'), classes.join(''));
console.log(`bpe_reference: ${texts.length} lines, Unicode ${process.versions.unicode}`);
