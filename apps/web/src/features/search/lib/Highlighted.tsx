import { highlightRuns } from './highlight.ts';

/** Text with the searched words marked (<mark>, read by screen readers as highlighted). */
export function Highlighted({ text, forms }: { text: string; forms: readonly string[] }) {
  return (
    <>
      {highlightRuns(text, forms).map((run, i) =>
        // biome-ignore lint/suspicious/noArrayIndexKey: runs are a pure function of the text; order is the identity.
        run.mark ? <mark key={i}>{run.text}</mark> : <span key={i}>{run.text}</span>,
      )}
    </>
  );
}
