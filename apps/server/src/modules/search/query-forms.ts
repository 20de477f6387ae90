/**
 * The spellings one typed query may stand for. A Russian speaker types «ghbdtn» for «привет» with the wrong
 * keyboard layout, «privet» without a Cyrillic keyboard, «ёлка» or «елка» at will; the engine searches every
 * spelling at once and ranks the typed one first. Typos are the database's part (trigram similarity over the
 * vocabulary, see repository.ts).
 */

const LATIN_KEYS = '`qwertyuiop[]asdfghjkl;\'zxcvbnm,.~QWERTYUIOP{}ASDFGHJKL:"ZXCVBNM<>';
const CYRILLIC_KEYS = 'ёйцукенгшщзхъфывапролджэячсмитьбюЁЙЦУКЕНГШЩЗХЪФЫВАПРОЛДЖЭЯЧСМИТЬБЮ';

const toCyrillicKey = new Map<string, string>();
const toLatinKey = new Map<string, string>();
for (let i = 0; i < LATIN_KEYS.length; i += 1) {
  toCyrillicKey.set(LATIN_KEYS[i] as string, CYRILLIC_KEYS[i] as string);
  toLatinKey.set(CYRILLIC_KEYS[i] as string, LATIN_KEYS[i] as string);
}

/** The same keys pressed on the other layout (ЙЦУКЕН ↔ QWERTY), both ways; other characters stay. */
export function swapLayout(text: string): string {
  let out = '';
  for (const ch of text) out += toCyrillicKey.get(ch) ?? toLatinKey.get(ch) ?? ch;
  return out;
}

/** ё and е are one letter to a searcher. */
export function foldYo(text: string): string {
  return text.replace(/ё/g, 'е').replace(/Ё/g, 'Е');
}

/** Lower case, ё folded, punctuation other than # and word-inner hyphens turned into spaces. */
export function normalizeQuery(text: string): string {
  return foldYo(text.toLowerCase())
    .replace(/[^\p{L}\p{N}#_\s-]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

const CYRILLIC_TO_LATIN: Record<string, string> = {
  а: 'a',
  б: 'b',
  в: 'v',
  г: 'g',
  д: 'd',
  е: 'e',
  ё: 'e',
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

/** Russian in Latin letters (the passport scheme most people know: ж zh, х kh, щ shch, ю yu). */
export function cyrillicToLatin(text: string): string {
  let out = '';
  for (const ch of text.toLowerCase()) out += CYRILLIC_TO_LATIN[ch] ?? ch;
  return out;
}

/**
 * Latin spellings of Russian sounds, longest first, with every reading the common schemes give
 * (GOST 7.79, the passport scheme, BGN, the informal "translit" of chats). The first reading is the likeliest.
 */
const LATIN_UNITS: ReadonlyArray<readonly [string, readonly string[]]> = [
  ['shch', ['щ']],
  ['sch', ['щ', 'ш']],
  ['zh', ['ж']],
  ['kh', ['х']],
  ['ts', ['ц', 'тс']],
  ['tz', ['ц']],
  ['ch', ['ч']],
  ['sh', ['ш']],
  ['yu', ['ю']],
  ['ju', ['ю']],
  ['iu', ['ю']],
  ['ya', ['я']],
  ['ja', ['я']],
  ['ia', ['я', 'ия']],
  ['yo', ['ё', 'йо']],
  ['jo', ['ё']],
  ['ye', ['е', 'ье']],
  ['je', ['е']],
  ['iy', ['ий']],
  ['yi', ['ый', 'ий']],
  ['yy', ['ый']],
  ['ay', ['ай']],
  ['oy', ['ой']],
  ['ey', ['ей']],
  ['uy', ['уй']],
  ['a', ['а']],
  ['b', ['б']],
  ['v', ['в']],
  ['w', ['в']],
  ['g', ['г']],
  ['d', ['д']],
  ['e', ['е', 'э']],
  ['z', ['з']],
  ['i', ['и', 'й']],
  ['j', ['й', 'ж']],
  ['k', ['к']],
  ['l', ['л']],
  ['m', ['м']],
  ['n', ['н']],
  ['o', ['о']],
  ['p', ['п']],
  ['r', ['р']],
  ['s', ['с']],
  ['t', ['т']],
  ['u', ['у']],
  ['f', ['ф']],
  ['h', ['х']],
  ['c', ['к', 'ц']],
  ['q', ['к']],
  ['x', ['кс']],
  ['y', ['ы', 'й']],
  ["'", ['ь']],
];

const MAX_READINGS = 4;

/**
 * Cyrillic readings of a Latin word, the likeliest first: each ambiguous unit keeps its first reading
 * except for at most one unit read the other way per alternative, so the list stays short.
 */
export function latinToCyrillic(text: string): string[] {
  const units: Array<readonly string[]> = [];
  const lower = text.toLowerCase();
  let i = 0;
  while (i < lower.length) {
    const match = LATIN_UNITS.find(([latin]) => lower.startsWith(latin, i));
    if (match) {
      units.push(match[1]);
      i += match[0].length;
    } else {
      units.push([lower[i] as string]);
      i += 1;
    }
  }
  const first = units.map((u) => u[0]).join('');
  const readings = [first];
  // «e» at a word's start is usually «э» (ekran, eto); elsewhere «е».
  for (let u = 0; u < units.length && readings.length < MAX_READINGS; u += 1) {
    const options = units[u] as readonly string[];
    for (const alt of options.slice(1)) {
      const reading = units.map((x, k) => (k === u ? alt : x[0])).join('');
      if (!readings.includes(reading)) readings.push(reading);
      if (readings.length >= MAX_READINGS) break;
    }
  }
  return readings;
}

const CYRILLIC = /\p{Script=Cyrillic}/u;
const LATIN = /[a-z]/i;

export type QueryFormKind = 'typed' | 'layout' | 'translit';

export interface QueryForm {
  text: string;
  kind: QueryFormKind;
}

/**
 * Every spelling to search for: the typed one (normalised), the other keyboard layout, and transliteration
 * in the direction the letters call for. Word by word, so «ghbdtn мир» reads as «привет мир».
 */
export function queryForms(raw: string): QueryForm[] {
  const typed = normalizeQuery(raw);
  if (!typed) return [];
  const forms: QueryForm[] = [{ text: typed, kind: 'typed' }];
  const add = (text: string, kind: QueryFormKind) => {
    const t = normalizeQuery(text);
    if (t && !forms.some((f) => f.text === t)) forms.push({ text: t, kind });
  };
  // The layout swap works on the raw keys: «;» and «,» are letters on the other layout (ж, б).
  const rawWords = raw.trim().split(/\s+/);
  add(rawWords.map((w) => (LATIN.test(w) && !CYRILLIC.test(w) ? swapLayout(w) : w)).join(' '), 'layout');
  add(rawWords.map((w) => (CYRILLIC.test(w) && !LATIN.test(w) ? swapLayout(w) : w)).join(' '), 'layout');
  const words = typed.split(' ');
  if (words.some((w) => LATIN.test(w))) {
    const perWord = words.map((w) => (LATIN.test(w) && !CYRILLIC.test(w) ? latinToCyrillic(w) : [w]));
    for (let alt = 0; alt < MAX_READINGS; alt += 1) {
      add(perWord.map((options) => options[Math.min(alt, options.length - 1)]).join(' '), 'translit');
    }
  }
  if (words.some((w) => CYRILLIC.test(w))) add(cyrillicToLatin(typed), 'translit');
  return forms;
}

/** The words of a form that a full-text query can use (letters and digits; a leading # dropped). */
export function formWords(form: string): string[] {
  return form
    .split(/[\s_-]+/)
    .map((w) => w.replace(/^#+/, '').replace(/[^\p{L}\p{N}]/gu, ''))
    .filter((w) => w.length > 0);
}
