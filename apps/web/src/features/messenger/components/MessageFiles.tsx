import type { MessageFile } from '@kadr/contract';
import { AlertTriangle, Loader2, Play } from 'lucide-react';
import { useState } from 'react';
import { messengerStrings } from '../strings.ts';
import styles from './MessageBubble.module.css';
import { VoiceMessage } from './VoiceMessage.tsx';

export const formatSize = (bytes: number) =>
  bytes < 1024 * 1024
    ? messengerStrings.sizeKb(Math.max(1, Math.round(bytes / 1024)))
    : messengerStrings.sizeMb((bytes / 1024 / 1024).toFixed(1));

function ImageFile({ file, onOpen }: { file: MessageFile; onOpen: () => void }) {
  const [broken, setBroken] = useState(false);
  if (broken) return <span className={styles.broken}>{messengerStrings.brokenImage}</span>;
  const ratio = file.width && file.height ? `${file.width} / ${file.height}` : undefined;
  return (
    <button type="button" className={styles.mediaButton} onClick={onOpen} aria-label={messengerStrings.photo}>
      <img
        className={styles.media}
        style={{ aspectRatio: ratio }}
        src={file.thumbnail_url ?? file.file_url}
        width={file.width ?? undefined}
        height={file.height ?? undefined}
        alt={file.file_name ?? messengerStrings.photo}
        loading="lazy"
        onError={() => setBroken(true)}
      />
    </button>
  );
}

/** A message's attachments: images and videos open the media viewer, documents download. */
export function MessageFiles({
  files,
  onOpen,
}: {
  files: readonly MessageFile[];
  onOpen: (index: number) => void;
}) {
  return (
    <div className={styles.files}>
      {files.map((file, index) => {
        const key = `${file.file_url}#${index}`;
        // Media are processed on the server after upload; a message-edited event brings the ready file.
        if (file.status === 'processing' || file.status === 'failed') {
          const failed = file.status === 'failed';
          return (
            <span key={key} className={styles.processing} role="status">
              {failed ? (
                <AlertTriangle size={16} aria-hidden />
              ) : (
                <Loader2 size={16} className={styles.spin} aria-hidden />
              )}
              {failed ? messengerStrings.fileFailed : messengerStrings.fileProcessing}
            </span>
          );
        }
        switch (file.file_type) {
          case 'photo':
          case 'image':
          case 'gif':
            return <ImageFile key={key} file={file} onOpen={() => onOpen(index)} />;
          case 'video':
            return (
              <button
                key={key}
                type="button"
                className={styles.mediaButton}
                onClick={() => onOpen(index)}
                aria-label={messengerStrings.video}
              >
                {file.thumbnail_url ? (
                  <img
                    className={styles.media}
                    src={file.thumbnail_url}
                    width={file.width ?? undefined}
                    height={file.height ?? undefined}
                    alt={messengerStrings.video}
                    loading="lazy"
                  />
                ) : (
                  <span className={styles.videoBadge}>
                    <Play size={28} fill="currentColor" aria-hidden />
                  </span>
                )}
              </button>
            );
          case 'voice':
            return <VoiceMessage key={key} file={file} />;
          case 'document':
            return (
              <a key={key} className={styles.document} href={file.file_url} download={file.file_name ?? true}>
                {file.file_name ?? messengerStrings.document} · {formatSize(file.file_size)}
              </a>
            );
          default: {
            const exhaustive: never = file.file_type;
            return exhaustive;
          }
        }
      })}
    </div>
  );
}
