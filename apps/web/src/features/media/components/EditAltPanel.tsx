import type { Post } from '@kadr/contract';
import { Limits, MEDIA_TAG_KEYS, MEDIA_TAGS } from '@kadr/contract/browser';
import { type FormEvent, useId, useState } from 'react';
import { errorMessage } from '../../../shared/api/client.ts';
import { Button } from '../../../shared/ui/Button.tsx';
import { Sheet } from '../../../shared/ui/Sheet.tsx';
import { showToast } from '../../../shared/ui/toast.ts';
import { useEditAltMutation } from '../api/edit-alt.ts';
import { mediaStrings } from '../strings.ts';
import styles from './Panels.module.css';

const T = mediaStrings.alt;
/** Sleep mode is set from its own switch (PATCH /media/post/{id}), not here. */
const EDITABLE = MEDIA_TAG_KEYS.filter((tag) => tag !== 'for_sleep');

/**
 * The author's edit of a post's alt text (what screen readers say for its image or video, what search finds)
 * and of its tags, filled with what the tagger wrote.
 */
export function EditAltPanel({ post, onClose }: { post: Post; onClose: () => void }) {
  const [text, setText] = useState(post.ai_description);
  const [tags, setTags] = useState(() => new Set(post.ai_tags));
  const [error, setError] = useState<string | null>(null);
  const edit = useEditAltMutation();
  const hintId = useId();
  const errorId = useId();
  const trimmed = text.trim();

  const toggle = (tag: string, on: boolean) =>
    setTags((current) => {
      const next = new Set(current);
      if (on) next.add(tag);
      else next.delete(tag);
      return next;
    });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!trimmed) {
      setError(T.empty);
      return;
    }
    setError(null);
    edit.mutate(
      { id: post.id, altText: trimmed, tags: EDITABLE.filter((tag) => tags.has(tag)) },
      {
        onSuccess: () => {
          showToast(T.saved);
          onClose();
        },
        onError: (e) => setError(errorMessage(e)),
      },
    );
  };

  return (
    <Sheet title={T.title} onClose={onClose}>
      <form className={styles.altForm} onSubmit={submit} data-no-gesture>
        <label className={styles.altLabel}>
          {T.label}
          <textarea
            className={styles.altText}
            value={text}
            maxLength={Limits.altText}
            aria-describedby={error ? `${hintId} ${errorId}` : hintId}
            aria-invalid={error ? true : undefined}
            onChange={(e) => setText(e.currentTarget.value)}
          />
        </label>
        <p id={hintId} className={styles.hint}>
          {T.hint} {T.counter(text.length, Limits.altText)}
        </p>
        {post.ai_objects.length > 0 ? (
          <p className={styles.muted}>{T.found(post.ai_objects.join(', '))}</p>
        ) : null}
        <fieldset className={styles.altFieldset}>
          <legend>{T.tags}</legend>
          <div className={styles.tags}>
            {EDITABLE.map((tag) => (
              <label key={tag} className={styles.toggle}>
                <span>{MEDIA_TAGS[tag]}</span>
                <input
                  type="checkbox"
                  checked={tags.has(tag)}
                  onChange={(e) => toggle(tag, e.currentTarget.checked)}
                />
              </label>
            ))}
          </div>
        </fieldset>
        {error ? (
          <p id={errorId} className={styles.error} role="alert">
            {error}
          </p>
        ) : null}
        <div className={styles.altActions}>
          <Button variant="secondary" onClick={onClose}>
            {T.cancel}
          </Button>
          <Button type="submit" disabled={edit.isPending}>
            {edit.isPending ? T.saving : T.save}
          </Button>
        </div>
      </form>
    </Sheet>
  );
}
