import { Limits } from '@kadr/contract/browser';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { ru } from '../../../../shared/i18n/ru.ts';
import { Button } from '../../../../shared/ui/Button.tsx';
import { Sheet } from '../../../../shared/ui/Sheet.tsx';
import { usePostUpload } from '../hooks/use-post-upload.ts';
import { formEnabled, UPLOAD_CLOSE_DELAY_MS } from '../lib/upload-status.ts';
import { checkPickedFiles, validateUpload } from '../lib/validate-upload.ts';
import styles from './UploadModal.module.css';
import { UploadProgress } from './UploadProgress.tsx';

const T = ru.feed.upload;

/** Post upload (spec §2.3, §4.5, §5): files, optional video cover, caption; progress, processing, done. */
export function UploadModal({ onClose }: { onClose: () => void }) {
  const { state, start } = usePostUpload();
  const [files, setFiles] = useState<File[]>([]);
  const [cover, setCover] = useState<File | null>(null);
  const [caption, setCaption] = useState('');
  const ids = { files: useId(), cover: useId(), caption: useId() };
  const enabled = formEnabled(state);
  const hasVideo = files.some((f) => f.type.startsWith('video/'));

  useEffect(() => {
    if (state.status !== 'done') return;
    const timer = setTimeout(onClose, UPLOAD_CLOSE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [state.status, onClose]);

  const pickFiles = (list: FileList | null) => {
    const picked = Array.from(list ?? []);
    const problem = checkPickedFiles(picked);
    if (problem) {
      window.alert(problem);
      setFiles([]);
      return;
    }
    setFiles(picked);
    if (!picked.some((f) => f.type.startsWith('video/'))) setCover(null);
  };

  const pickCover = (list: FileList | null) => {
    const picked = list?.[0] ?? null;
    if (picked && !picked.type.startsWith('image/')) {
      window.alert(T.coverNotImage);
      setCover(null);
      return;
    }
    setCover(picked);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const check = validateUpload(files, cover, caption);
    if (!check.ok) {
      window.alert(check.message);
      return;
    }
    void start({ files, cover: hasVideo ? cover : null, caption, mediaType: check.mediaType });
  };

  return (
    <Sheet title={T.title} onClose={onClose} centered locked={!enabled && state.status !== 'done'}>
      <form className={styles.form} onSubmit={submit} aria-busy={!enabled}>
        <fieldset className={styles.fieldset} disabled={!enabled}>
          <label className={styles.field} htmlFor={ids.files}>
            <span>{T.files}</span>
            <input
              id={ids.files}
              type="file"
              accept="video/*,image/*"
              multiple
              onChange={(e) => pickFiles(e.currentTarget.files)}
            />
          </label>
          {files.length > 0 ? <p className={styles.hint}>{T.selected(files.length)}</p> : null}
          {hasVideo ? (
            <label className={styles.field} htmlFor={ids.cover}>
              <span>{T.cover}</span>
              <input
                id={ids.cover}
                type="file"
                accept="image/*"
                onChange={(e) => pickCover(e.currentTarget.files)}
              />
            </label>
          ) : null}
          <label className={styles.field} htmlFor={ids.caption}>
            <span>{T.caption}</span>
            <textarea
              id={ids.caption}
              value={caption}
              maxLength={Limits.postCaption}
              rows={3}
              onChange={(e) => setCaption(e.currentTarget.value)}
            />
            <span className={styles.counter}>{T.counter(caption.length, Limits.postCaption)}</span>
          </label>
        </fieldset>
        <UploadProgress state={state} />
        <div className={styles.actions}>
          <Button variant="secondary" onClick={onClose} disabled={!enabled}>
            {T.cancel}
          </Button>
          <Button type="submit" disabled={!enabled}>
            {T.submit}
          </Button>
        </div>
      </form>
    </Sheet>
  );
}
