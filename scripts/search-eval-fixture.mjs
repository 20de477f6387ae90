#!/usr/bin/env node
// Builds the search evaluation set (apps/server/test/fixtures/search-eval.json) from real Russian text that ships
// in Debian: fortunes-ru (GPL-2, © 2003 Pavel Maryanov) for the documents, hunspell-ru's ru_RU dictionary for word
// forms. Run on a Debian machine:
//   apt-get download fortunes-ru && dpkg -x fortunes-ru_*.deb /tmp/fortunes-ru
//   node scripts/search-eval-fixture.mjs /tmp/fortunes-ru/usr/share/games/fortunes/ru /usr/share/hunspell/ru_RU
// Queries are derived with known answers: the exact word, another form of it (hunspell), the same keys typed on the
// Latin layout, transliterated (two common schemes), and with one typo. Deterministic (seeded).
// The layout and transliteration tables here are written apart from apps/server/src/modules/search/query-forms.ts
// on purpose: queries derived with the engine's own tables would only prove the engine agrees with itself.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const [fortunesDir, dictBase] = process.argv.slice(2);
if (!fortunesDir || !dictBase) {
  console.error(
    'usage: search-eval-fixture.mjs <fortunes-ru dir> <hunspell base, e.g. /usr/share/hunspell/ru_RU>',
  );
  process.exit(2);
}
const DOCS = 1200;
const PER_KIND = 100;

let seed = 36;
const random = () => {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed / 2147483648;
};
const pick = (list) => list[Math.floor(random() * list.length)];

// Documents: fortunes of one to three lines, the attribution line dropped.
const files = fs
  .readdirSync(fortunesDir)
  .filter((f) => /^\d{4}\.\d{2}$/.test(f))
  .sort();
const docs = [];
for (const file of files) {
  for (const entry of fs.readFileSync(path.join(fortunesDir, file), 'utf8').split(/\n%\n/)) {
    const text = entry
      .split('\n')
      .filter((line) => !/^\s*--/.test(line))
      .join(' ')
      .replace(/\s+/g, ' ')
      .trim();
    if (text.length >= 40 && text.length <= 240 && /[а-яё]/i.test(text)) docs.push(text);
  }
}
const corpus = [];
for (let i = 0; i < docs.length && corpus.length < DOCS; i += Math.max(1, Math.floor(docs.length / DOCS))) {
  corpus.push(docs[i]);
}

const fold = (w) => w.toLowerCase().replace(/ё/g, 'е');
const wordsOf = (text) => fold(text).match(/[а-я]+/g) ?? [];
const docFreq = new Map();
corpus.forEach((text) => {
  for (const w of new Set(wordsOf(text))) docFreq.set(w, (docFreq.get(w) ?? 0) + 1);
});

// Hunspell: expand each dictionary entry by its suffix rules; keep the groups that hold a corpus word.
const aff = fs.readFileSync(`${dictBase}.aff`, 'utf8').split('\n');
const rules = new Map();
for (const line of aff) {
  const m = line.match(/^SFX\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)/);
  if (!m || (/^[YN]$/.test(m[3]) && /^\d+$/.test(m[4]))) continue;
  const [, flag, strip, add, cond] = m;
  const list = rules.get(flag) ?? [];
  list.push({
    strip: strip === '0' ? '' : strip,
    add: add === '0' ? '' : add.split('/')[0],
    cond: new RegExp(`${cond}$`),
  });
  rules.set(flag, list);
}
const formsOf = new Map();
for (const line of fs.readFileSync(`${dictBase}.dic`, 'utf8').split('\n').slice(1)) {
  const [stem, flags = ''] = line.trim().split('/');
  if (!stem || /[^а-яё]/i.test(stem) || stem !== stem.toLowerCase()) continue;
  const forms = new Set([fold(stem)]);
  for (const flag of flags) {
    for (const r of rules.get(flag) ?? []) {
      if (r.cond.test(stem) && stem.endsWith(r.strip))
        forms.add(fold(stem.slice(0, stem.length - r.strip.length) + r.add));
    }
  }
  const group = [...forms];
  for (const f of group) if (docFreq.has(f)) formsOf.set(f, group);
}

const LATIN = "`qwertyuiop[]asdfghjkl;'zxcvbnm,.";
const CYR = 'ёйцукенгшщзхъфывапролджэячсмитьбю';
const layout = (w) => [...w].map((c) => LATIN[CYR.indexOf(c)] ?? c).join('');
const PASSPORT = {
  а: 'a',
  б: 'b',
  в: 'v',
  г: 'g',
  д: 'd',
  е: 'e',
  ж: 'zh',
  з: 'z',
  и: 'i',
  й: 'y',
  к: 'k',
  л: 'l',
  м: 'm',
  н: 'n',
  о: 'o',
  п: 'p',
  р: 'r',
  с: 's',
  т: 't',
  у: 'u',
  ф: 'f',
  х: 'kh',
  ц: 'ts',
  ч: 'ch',
  ш: 'sh',
  щ: 'shch',
  ъ: '',
  ы: 'y',
  ь: '',
  э: 'e',
  ю: 'yu',
  я: 'ya',
};
const INFORMAL = { ...PASSPORT, ж: 'zh', х: 'h', ц: 'c', щ: 'sch', й: 'j', ю: 'ju', я: 'ja', ь: "'" };
const translit = (w, scheme) => [...w].map((c) => scheme[c] ?? c).join('');
const NEIGHBOURS = 'йцукенгшщзхъ|фывапролджэ|ячсмитьбю';
function typo(w) {
  const i = 1 + Math.floor(random() * (w.length - 2));
  switch (Math.floor(random() * 3)) {
    case 0: {
      // A neighbouring key on the same row.
      const row = NEIGHBOURS.split('|').find((r) => r.includes(w[i])) ?? CYR;
      const k = row.indexOf(w[i]);
      const next = row[k + 1] ?? row[k - 1];
      return w.slice(0, i) + next + w.slice(i + 1);
    }
    case 1:
      return w.slice(0, i) + w.slice(i + 1);
    default:
      return w.slice(0, i) + w[i + 1] + w[i] + w.slice(i + 2);
  }
}

// Targets: a document and one of its rarer words (in at most two documents), long enough to mean something.
const candidates = [];
corpus.forEach((text, doc) => {
  const words = [...new Set(wordsOf(text))].filter(
    (w) => w.length >= 6 && w.length <= 14 && (docFreq.get(w) ?? 0) <= 2,
  );
  if (words.length > 0) candidates.push({ doc, words });
});
const queries = [];
const relevant = (w) => corpus.flatMap((text, i) => (wordsOf(text).includes(w) ? [i] : []));
const kinds = {
  exact: (w) => w,
  wordform: (w) => {
    const others = (formsOf.get(w) ?? []).filter((f) => f !== w && f.length >= 4 && !docFreq.has(f));
    return others.length > 0 ? pick(others) : null;
  },
  layout: (w) => layout(w),
  translit: (w) => translit(w, random() < 0.5 ? PASSPORT : INFORMAL),
  typo: (w) => typo(w),
};
for (const [kind, make] of Object.entries(kinds)) {
  let made = 0;
  for (let tries = 0; made < PER_KIND && tries < PER_KIND * 20; tries += 1) {
    const target = pick(candidates);
    const word = pick(target.words);
    const query = make(word);
    if (!query || queries.some((q) => q.kind === kind && q.query === query)) continue;
    queries.push({ kind, query, word, relevant: relevant(word) });
    made += 1;
  }
}

const out = {
  source:
    'Debian package fortunes-ru 1.52 (upstream fortune-mod-ru, © 2003 Pavel Maryanov), GNU GPL version 2; word forms from Debian hunspell-ru (ru_RU, © 1997–2008 Alexander I. Lebedev, BSD-style 4-clause licence). Derived by scripts/search-eval-fixture.mjs.',
  licence: 'GPL-2.0 (the documents, as in fortunes-ru)',
  docs: corpus,
  queries,
};
const target = path.resolve('apps/server/test/fixtures/search-eval.json');
fs.writeFileSync(target, `${JSON.stringify(out, null, 2)}\n`);
// Formatted as the repository's Biome formats JSON, so `biome check` stays clean.
execFileSync(path.resolve('node_modules/.bin/biome'), ['format', '--write', target]);
console.log(`${corpus.length} documents, ${queries.length} queries → ${target}`);
for (const kind of Object.keys(kinds)) console.log(kind, queries.filter((q) => q.kind === kind).length);
