import { Limits } from '@kadr/contract/browser';
import { ChevronLeft, ChevronRight, ImagePlus, X } from 'lucide-react';
import { type DragEvent, type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { Button } from '../../../../shared/ui/Button.tsx';
import { Sheet } from '../../../../shared/ui/Sheet.tsx';
import { mediaStrings } from '../../strings.ts';
import { usePostUpload } from '../hooks/use-post-upload.ts';
import { moveItem, type PickedFile } from '../lib/picked-files.ts';
import { formEnabled, UPLOAD_CLOSE_DELAY_MS } from '../lib/upload-status.ts';
import { checkPickedFiles, validateUpload } from '../lib/validate-upload.ts';
import styles from './UploadModal.module.css';
import { UploadProgress } from './UploadProgress.tsx';

const T = mediaStrings.upload;
let nextKey = 0;

const toPicked = (file: File): PickedFile => ({
  key: `f${nextKey++}`,
  file,
  url: typeof URL.createObjectURL === 'function' ? URL.createObjectURL(file) : '',
});

/**
 * Post upload (spec §2.3, §4.5, §5): drop or pick files, see every image and the first frame of a video,
 * reorder and remove carousel images, an optional video cover, the caption with its counter; progress
 * with cancel (the request is aborted and the server stores nothing); every error in the form.
 */
export function UploadModal({ onClose }: { onClose: () => void }) {
  const { state, start, cancel } = usePostUpload();
  const [items, setItems] = useState<PickedFile[]>([]);
  const [cover, setCover] = useState<File | null>(null);
  const [caption, setCaption] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [dragOver, setDragOver] = useState(false);
  const ids = { files: useId(), cover: useId(), caption: useId(), counter: useId() };
  const enabled = formEnabled(state);
  const files = items.map((item) => item.file);
  const hasVideo = files.some((f) => f.type.startsWith('video/'));
  const live = useRef(items);
  live.current = items;

  useEffect(
    () => () => {
      for (const item of live.current) item.url && URL.revokeObjectURL(item.url);
    },
    [],
  );

  useEffect(() => {
    if (state.status !== 'done') return;
    const timer = setTimeout(onClose, UPLOAD_CLOSE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [state.status, onClose]);

  const replace = (next: PickedFile[]) => {
    const kept = new Set(next.map((item) => item.key));
    for (const item of items) if (!kept.has(item.key)) item.url && URL.revokeObjectURL(item.url);
    setItems(next);
    if (!next.some((item) => item.file.type.startsWith('video/'))) setCover(null);
  };

  const addFiles = (list: FileList | null) => {
    const picked = Array.from(list ?? []);
    if (picked.length === 0) return;
    // Images add to the carousel; a video replaces whatever was picked (a post is one video or images).
    const combined =
      picked.some((f) => f.type.startsWith('video/')) || hasVideo ? picked : [...files, ...picked];
    const check = checkPickedFiles(combined);
    if (check) {
      setProblem(check);
      return;
    }
    setProblem(null);
    const keep = combined === picked ? [] : items;
    replace([...keep, ...picked.map(toPicked)]);
  };

  const pickCover = (list: FileList | null) => {
    const picked = list?.[0] ?? null;
    if (picked && !picked.type.startsWith('image/')) {
      setProblem(T.coverNotImage);
      setCover(null);
      return;
    }
    setProblem(null);
    setCover(picked);
  };

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragOver(false);
    if (enabled) addFiles(event.dataTransfer.files);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const check = validateUpload(files, cover, caption);
    if (!check.ok) {
      setProblem(check.message);
      return;
    }
    setProblem(null);
    void start({ files, cover: hasVideo ? cover : null, caption, mediaType: check.mediaType });
  };

  return (
    <Sheet title={T.title} onClose={onClose} centered locked={!enabled && state.status !== 'done'}>
      <form className={styles.form} onSubmit={submit} aria-busy={!enabled} noValidate>
        <fieldset className={styles.fieldset} disabled={!enabled}>
          <label
            className={styles.drop}
            htmlFor={ids.files}
            data-over={dragOver}
            onDragOver={(event) => {
              event.preventDefault();
              setDragOver(true);
            }}
            onDragLeave={() => setDragOver(false)}
            onDrop={onDrop}
          >
            <ImagePlus size={28} aria-hidden />
            <span>
              {items.length > 0 ? T.addMore : T.drop} {items.length > 0 ? null : <u>{T.pick}</u>}
            </span>
            <input
              id={ids.files}
              className={styles.fileInput}
              type="file"
              accept="video/*,image/*"
              multiple
              aria-label={T.files}
              onChange={(e) => {
                addFiles(e.currentTarget.files);
                e.currentTarget.value = '';
              }}
            />
          </label>
          {items.length > 0 ? (
            <>
              <ul className={styles.previews} aria-label={T.previews}>
                {items.map((item, index) => (
                  <li key={item.key} className={styles.preview}>
                    {item.file.type.startsWith('video/') ? (
                      // The first frame: metadata is enough for the browser to paint frame 0.
                      <video
                        className={styles.thumb}
                        src={`${item.url}#t=0.001`}
                        preload="metadata"
                        muted
                        playsInline
                        data-testid="upload-thumb"
                      />
                    ) : (
                      <img
                        className={styles.thumb}
                        src={item.url}
                        width={96}
                        height={96}
                        alt=""
                        data-testid="upload-thumb"
                      />
                    )}
                    <button
                      type="button"
                      className={`${styles.thumbButton} ${styles.remove}`}
                      aria-label={T.remove(index + 1)}
                      onClick={() => replace(items.filter((other) => other.key !== item.key))}
                    >
                      <X size={16} aria-hidden />
                    </button>
                    {items.length > 1 ? (
                      <div className={styles.order}>
                        <button
                          type="button"
                          className={styles.thumbButton}
                          aria-label={T.moveLeft(index + 1)}
                          disabled={index === 0}
                          onClick={() => replace(moveItem(items, index, -1))}
                        >
                          <ChevronLeft size={16} aria-hidden />
                        </button>
                        <button
                          type="button"
                          className={styles.thumbButton}
                          aria-label={T.moveRight(index + 1)}
                          disabled={index === items.length - 1}
                          onClick={() => replace(moveItem(items, index, 1))}
                        >
                          <ChevronRight size={16} aria-hidden />
                        </button>
                      </div>
                    ) : null}
                  </li>
                ))}
              </ul>
              <p className={styles.hint}>{T.selected(items.length)}</p>
            </>
          ) : null}
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
              aria-describedby={ids.counter}
              onChange={(e) => setCaption(e.currentTarget.value)}
            />
            <span id={ids.counter} className={styles.counter}>
              {T.counter(caption.length, Limits.postCaption)}
            </span>
          </label>
        </fieldset>
        {problem ? (
          <p className={`${styles.status} ${styles.failed}`} role="alert">
            {problem}
          </p>
        ) : null}
        <UploadProgress state={state} />
        <div className={styles.actions}>
          {state.status === 'uploading' ? (
            <Button variant="secondary" onClick={cancel}>
              {T.cancelUpload}
            </Button>
          ) : (
            <Button variant="secondary" onClick={onClose} disabled={!enabled}>
              {T.cancel}
            </Button>
          )}
          <Button type="submit" disabled={!enabled}>
            {T.submit}
          </Button>
        </div>
      </form>
    </Sheet>
  );
}
