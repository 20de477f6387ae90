import { usePageShown } from '../../../app/boot/frame-overlay.ts';
import { Button } from '../../../shared/ui/Button.tsx';
import { Sheet } from '../../../shared/ui/Sheet.tsx';
import { storiesStrings as S } from '../strings.ts';

/** A `?story=<id>` link to a story that is gone or hidden (#18 item 3): said plainly, with the way back. */
export function StoryLinkMissing({ onClose }: { onClose: () => void }) {
  usePageShown();
  return (
    <Sheet title={S.linkMissing.title} onClose={onClose} centered>
      <div data-testid="story-not-found" style={{ display: 'grid', gap: 16, padding: '0 16px 16px' }}>
        <p style={{ margin: 0 }}>{S.linkMissing.hint}</p>
        <Button onClick={onClose}>{S.linkMissing.back}</Button>
      </div>
    </Sheet>
  );
}
