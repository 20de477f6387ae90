import { withEmoji } from '../../../shared/emoji/emoji-text.tsx';
import { highlightRuns } from './highlight.ts';

/** Text with the searched words marked (<mark>, read by screen readers as highlighted), its emoji as images. */
export function Highlighted({ text, forms }: { text: string; forms: readonly string[] }) {
  return (
    <>
      {highlightRuns(text, forms).map((run, i) =>
        // biome-ignore lint/suspicious/noArrayIndexKey: runs are a pure function of the text; order is the identity.
        run.mark ? <mark key={i}>{withEmoji(run.text)}</mark> : <span key={i}>{withEmoji(run.text)}</span>,
      )}
    </>
  );
}
