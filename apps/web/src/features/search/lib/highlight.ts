/** Lower case with ё as е (U+0451 → U+0435), as the server folds what it searched. */
export const fold = (text: string) => text.toLowerCase().replace(/\u0451/g, '\u0435');

/**
 * Splits text into runs, marking the words that match one of the searched spellings (`forms`, as the server
 * answers them): a word matches when it starts with a spelling's word less its last two letters (word forms:
 * «кошками» for «кошки»), or with the whole of a short one.
 */
export function highlightRuns(
  text: string,
  forms: readonly string[],
): Array<{ text: string; mark: boolean }> {
  const stems = [
    ...new Set(
      forms
        .flatMap((f) => fold(f).split(/[^\p{L}\p{N}]+/u))
        .filter((w) => w.length >= 2)
        .map((w) => (w.length >= 4 ? w.slice(0, Math.max(3, w.length - 2)) : w)),
    ),
  ];
  if (stems.length === 0) return [{ text, mark: false }];
  const runs: Array<{ text: string; mark: boolean }> = [];
  for (const part of text.split(/([\p{L}\p{N}]+)/u)) {
    if (part === '') continue;
    const mark = /[\p{L}\p{N}]/u.test(part) && stems.some((s) => fold(part).startsWith(s));
    const last = runs[runs.length - 1];
    if (last && last.mark === mark) last.text += part;
    else runs.push({ text: part, mark });
  }
  return runs;
}
