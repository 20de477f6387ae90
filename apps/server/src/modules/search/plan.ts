import { foldYo, formWords, type QueryForm, queryForms } from './query-forms.ts';

/** Most words of one spelling a search uses; the rest of a long query is ignored. */
const MAX_WORDS = 6;

/** A query made ready for the database: its spellings and, per word, the typo corrections found. */
export interface SearchPlan {
  forms: QueryForm[];
  /** Per spelling, per word: the word and its corrections. */
  words: string[][][];
  /** Words added from synonym groups: they find posts and messages, not names of people or rooms. */
  related?: string[];
}

/** Edit distance, for checking a trigram neighbour is a typo and not another word. */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  // Optimal string alignment: insertions, deletions, substitutions and swaps of neighbouring letters.
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  const at = (i: number, j: number) => (d[i] as number[])[j] as number;
  for (let i = 1; i <= a.length; i += 1) {
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, at(i - 2, j - 2) + 1);
      (d[i] as number[])[j] = best;
    }
  }
  return at(a.length, b.length);
}

/** Typos a word of this length may carry: one up to six letters, two beyond. */
export function typoBudget(word: string): number {
  if (word.length < 4) return 0;
  return word.length <= 6 ? 1 : 2;
}

/**
 * Another form of the same word: Russian inflects at the end, so forms share all but the last few letters
 * («фонтаном», «фонтана»). The stemmer alone misses some (it reads «фонтана» as «фонта»).
 */
export function sameWord(candidate: string, word: string): boolean {
  if (word.length < 5 || candidate.length < 5) return false;
  const shared = Math.max(4, Math.min(word.length, candidate.length) - 3);
  return (
    candidate.slice(0, shared) === word.slice(0, shared) && Math.abs(candidate.length - word.length) <= 3
  );
}

/** Words worth correcting: long enough to carry a typo. */
export function correctable(words: string[][][]): string[] {
  const out = new Set<string>();
  for (const form of words)
    for (const alts of form) if (typoBudget(alts[0] as string) > 0) out.add(alts[0] as string);
  return [...out];
}

export function planQuery(raw: string): SearchPlan {
  const forms = queryForms(raw);
  return {
    forms,
    words: forms.map((f) =>
      formWords(f.text)
        .slice(0, MAX_WORDS)
        .map((w) => [w]),
    ),
  };
}

/** Every word of every spelling, once (what synonyms are looked up for). */
export function queryWords(words: string[][][]): string[] {
  return [...new Set(words.flatMap((form) => form.map((alts) => alts[0] as string)))];
}

/**
 * Adds alternatives (word → typo corrections from the vocabulary, or words of its synonym group) to every
 * spelling that has the word.
 */
export function withCorrections(plan: SearchPlan, corrections: ReadonlyMap<string, string[]>): SearchPlan {
  return {
    ...plan,
    words: plan.words.map((form) =>
      form.map((alts) => {
        const extra = corrections.get(alts[0] as string) ?? [];
        return [...alts, ...extra.filter((w) => !alts.includes(w))];
      }),
    ),
  };
}

/**
 * The plan as `to_tsquery` text: spellings joined by |, words of a spelling by &, a word's corrections
 * by |. `prefix`: the last word may be unfinished (results as you type).
 */
export function toTsquery(plan: SearchPlan, prefix: boolean): string | null {
  const parts: string[] = [];
  for (const form of plan.words) {
    if (form.length === 0) continue;
    const terms = form.map((alts, i) => {
      const last = prefix && i === form.length - 1;
      const options = alts.map((w) => `${foldYo(w)}${last && w === alts[0] ? ':*' : ''}`);
      return options.length > 1 ? `(${options.join(' | ')})` : (options[0] as string);
    });
    parts.push(`(${terms.join(' & ')})`);
  }
  return parts.length > 0 ? [...new Set(parts)].join(' | ') : null;
}

/** Only the spellings as typed or read (no corrections, whole words): what ranks a result first. */
export function strictTsquery(plan: SearchPlan): string | null {
  return toTsquery(
    { forms: plan.forms, words: plan.words.map((form) => form.map((alts) => [alts[0] as string])) },
    false,
  );
}

/** The plan with each word's synonym group added (see synonyms.ts). */
export function withSynonyms(plan: SearchPlan, groups: ReadonlyMap<string, string[]>): SearchPlan {
  return { ...withCorrections(plan, groups), related: [...new Set([...groups.values()].flat())] };
}

/** The spellings a name (of a person, a room, a hashtag) is matched against: no synonyms. */
export function nameSpellings(plan: SearchPlan): string[] {
  return spellings(plan).filter((w) => !plan.related?.includes(w));
}

/** Every spelling, correction and synonym as plain text, for highlighting. */
export function spellings(plan: SearchPlan): string[] {
  const out: string[] = [];
  plan.words.forEach((form, i) => {
    const typed = plan.forms[i]?.text;
    if (typed && !out.includes(typed)) out.push(typed);
    for (const alts of form) for (const w of alts.slice(1)) if (!out.includes(w)) out.push(w);
  });
  return out;
}
