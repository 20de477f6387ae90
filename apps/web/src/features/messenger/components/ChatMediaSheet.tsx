import type { ChatListItem, MessageFile, SharedMediaQuery } from '@kadr/contract';
import { messengerEndpoints } from '@kadr/contract/messenger/endpoints';
import { useQuery } from '@tanstack/react-query';
import { FileText, Mic, Play } from 'lucide-react';
import { useId, useState } from 'react';
import { api } from '../../../shared/api/client.ts';
import { Sheet } from '../../../shared/ui/Sheet.tsx';
import { Spinner } from '../../../shared/ui/Spinner.tsx';
import { messengerKeys } from '../api/messenger-keys.ts';
import { messengerStrings } from '../strings.ts';
import styles from './ChatMediaSheet.module.css';
import { formatSize } from './MessageFiles.tsx';
import { chatStrings } from './strings.ts';

type Tab = SharedMediaQuery['kind'];

interface Props {
  chat: ChatListItem;
  ownId: number;
  onClose: () => void;
  /** The media feed in chat mode: the posts shared in this chat (spec §2.4). */
  onOpenPosts: () => void;
  onView: (file: MessageFile) => void;
}

/** The chat's name in the shared-media route: exactly one of a peer (own id for favorites), group or channel. */
function chatQuery(chat: ChatListItem, ownId: number) {
  if (chat.is_favorites) return { other_user_id: ownId };
  if (chat.type === 'group') return { group_id: chat.user_id };
  if (chat.type === 'channel') return { channel_id: chat.user_id };
  return { other_user_id: chat.user_id };
}

/**
 * «Медиа из чата»: the photos and videos sent in the chat as a grid, its files and voice messages as a
 * list (members only, from `GET /messages/shared-media`), and the way to the posts shared in it.
 */
export function ChatMediaSheet({ chat, ownId, onClose, onOpenPosts, onView }: Props) {
  const [tab, setTab] = useState<Tab>('media');
  const panelId = useId();
  const target = chatQuery(chat, ownId);
  const query = useQuery({
    queryKey: [...messengerKeys.all, 'shared-media', target, tab],
    queryFn: ({ signal }) =>
      api.call(messengerEndpoints.sharedMedia, { query: { ...target, kind: tab, limit: 60 }, signal }),
  });
  const items = query.data?.items ?? [];
  return (
    <Sheet title={messengerStrings.chatMedia} onClose={onClose} testId="chat-media">
      <div className={styles.tabs}>
        <div className={styles.tabList} role="tablist" aria-label={messengerStrings.chatMedia}>
          {(['media', 'files'] as const).map((kind) => (
            <button
              key={kind}
              type="button"
              role="tab"
              aria-selected={tab === kind}
              aria-controls={panelId}
              className={styles.tab}
              onClick={() => setTab(kind)}
            >
              {kind === 'media' ? chatStrings.sharedPhotos : chatStrings.sharedFiles}
            </button>
          ))}
        </div>
        {/* The posts shared in the chat open the media feed (a page, not a tab of this sheet). */}
        <button type="button" className={styles.tab} onClick={onOpenPosts}>
          {chatStrings.sharedPosts}
        </button>
      </div>
      <div id={panelId} role="tabpanel" className={styles.panel}>
        {query.isPending ? (
          <Spinner />
        ) : items.length === 0 ? (
          <p className={styles.empty}>
            {tab === 'media' ? chatStrings.noSharedPhotos : chatStrings.noSharedFiles}
          </p>
        ) : tab === 'media' ? (
          <ul className={styles.grid} data-testid="shared-media-grid">
            {items.map(({ message_id, file }) => (
              <li key={`${message_id}-${file.file_url}`}>
                <button
                  type="button"
                  className={styles.cell}
                  aria-label={file.file_type === 'video' ? messengerStrings.video : messengerStrings.photo}
                  onClick={() => onView(file)}
                >
                  <img
                    src={file.thumbnail_url ?? file.file_url}
                    alt=""
                    width={160}
                    height={160}
                    loading="lazy"
                  />
                  {file.file_type === 'video' ? (
                    <span className={styles.play}>
                      <Play size={18} aria-hidden="true" />
                    </span>
                  ) : null}
                </button>
              </li>
            ))}
          </ul>
        ) : (
          <ul className={styles.files} data-testid="shared-files">
            {items.map(({ message_id, file, created_at }) => (
              <li key={`${message_id}-${file.file_url}`}>
                <a className={styles.file} href={file.file_url} download={file.file_name ?? undefined}>
                  <span className={styles.fileIcon}>
                    {file.file_type === 'voice' ? (
                      <Mic size={18} aria-hidden="true" />
                    ) : (
                      <FileText size={18} aria-hidden="true" />
                    )}
                  </span>
                  <span className={styles.fileText}>
                    <strong>
                      {file.file_type === 'voice'
                        ? messengerStrings.voice.message
                        : (file.file_name ?? messengerStrings.document)}
                    </strong>
                    <span>
                      {formatSize(file.file_size)} · {new Date(created_at).toLocaleDateString('ru-RU')}
                    </span>
                  </span>
                </a>
              </li>
            ))}
          </ul>
        )}
      </div>
    </Sheet>
  );
}
