import type { PostFile } from '@kadr/contract';
import { ChevronLeft, ChevronRight } from 'lucide-react';
import { useState } from 'react';
import { screenImage } from '../../../shared/lib/post-image.ts';
import type { PreloadState } from '../lib/preload.ts';
import { mediaStrings } from '../strings.ts';
import styles from './FeedPost.module.css';

interface Props {
  files: readonly PostFile[];
  alt: string;
  index: number;
  onIndex: (index: number) => void;
  /** Horizontal finger offset while a swipe is in progress. */
  dragX: number;
  preload: PreloadState;
}

function Slide({ file, alt, load }: { file: PostFile; alt: string; load: boolean }) {
  const [broken, setBroken] = useState(false);
  if (broken) return <p className={styles.broken}>{mediaStrings.brokenImage}</p>;
  // The screen variant, as the boot script paints the first photo (shared/lib/post-image.ts).
  const image = screenImage(file);
  return load && image ? (
    <img
      className={styles.image}
      src={image.src}
      width={image.width}
      height={image.height}
      alt={alt}
      draggable={false}
      onError={() => setBroken(true)}
    />
  ) : null;
}

/** A photo or a carousel; slides move by a 50 px swipe (handled by the feed) or the arrows. */
export function ImageCarousel({ files, alt, index, onIndex, dragX, preload }: Props) {
  const count = files.length;
  const load = preload !== 'unload' && preload !== 'idle';
  return (
    <section className={styles.carousel} aria-roledescription="carousel" aria-label={alt}>
      <div
        className={styles.slides}
        style={{
          transform: `translateX(calc(${-index * 100}% + ${dragX}px))`,
          transition: dragX ? 'none' : undefined,
        }}
      >
        {files.map((file, i) => (
          <div key={file.file_url} className={styles.slide} aria-hidden={i !== index}>
            <Slide file={file} alt={alt} load={load || i === index} />
          </div>
        ))}
      </div>
      {count > 1 ? (
        <>
          <div className={styles.dots} aria-live="polite" data-overlay>
            <span className="visually-hidden">{mediaStrings.imageOf(index + 1, count)}</span>
            {files.map((file, i) => (
              <span key={file.file_url} className={`${styles.dot} ${i === index ? styles.dotActive : ''}`} />
            ))}
          </div>
          {index > 0 ? (
            <button
              type="button"
              className={`${styles.arrow} ${styles.arrowPrev}`}
              data-overlay
              aria-label={mediaStrings.prevImage}
              onClick={() => onIndex(index - 1)}
            >
              <ChevronLeft size={22} aria-hidden />
            </button>
          ) : null}
          {index < count - 1 ? (
            <button
              type="button"
              className={`${styles.arrow} ${styles.arrowNext}`}
              data-overlay
              aria-label={mediaStrings.nextImage}
              onClick={() => onIndex(index + 1)}
            >
              <ChevronRight size={22} aria-hidden />
            </button>
          ) : null}
        </>
      ) : null}
    </section>
  );
}
