import type { MessageAttachment } from '@kadr/contract';
import { useCallback, useState } from 'react';
import { errorMessage } from '../../../shared/api/client.ts';
import { messengerApi } from '../api/messenger-api.ts';

export type AttachmentState =
  | { status: 'uploading'; key: string; name: string }
  | { status: 'ready'; key: string; name: string; file: MessageAttachment }
  | { status: 'failed'; key: string; name: string; error: string };

let counter = 0;

/**
 * Files attached to the message being written. Each is uploaded right away, so the outbox only has
 * to persist attachment ids and a message written offline never needs the File object again.
 */
export function useAttachments() {
  const [items, setItems] = useState<AttachmentState[]>([]);

  const add = useCallback((files: readonly File[]) => {
    for (const file of files) {
      counter += 1;
      const key = `a${counter}`;
      setItems((current) => [...current, { status: 'uploading', key, name: file.name }]);
      messengerApi
        .uploadAttachments([file])
        .then(({ files: uploaded }) => {
          const first = uploaded[0];
          setItems((current) =>
            current.map((item) =>
              item.key === key && first ? { status: 'ready', key, name: file.name, file: first } : item,
            ),
          );
        })
        .catch((error: unknown) => {
          setItems((current) =>
            current.map((item) =>
              item.key === key
                ? { status: 'failed', key, name: file.name, error: errorMessage(error) }
                : item,
            ),
          );
        });
    }
  }, []);

  const remove = useCallback(
    (key: string) => setItems((current) => current.filter((i) => i.key !== key)),
    [],
  );
  const clear = useCallback(() => setItems([]), []);
  const ready = items.flatMap((item) => (item.status === 'ready' ? [item.file] : []));
  const uploading = items.some((item) => item.status === 'uploading');
  return { items, ready, uploading, add, remove, clear };
}
