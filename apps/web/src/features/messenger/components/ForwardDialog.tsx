import type { ChatListItem } from '@kadr/contract';
import { useEffect, useRef } from 'react';
import { ru } from '../../../shared/i18n/ru.ts';
import { Avatar } from '../../../shared/ui/Avatar.tsx';
import { chatKey } from '../lib/chat-order.ts';
import styles from './Dialog.module.css';

interface Props {
  chats: readonly ChatListItem[];
  onPick: (chat: ChatListItem) => void;
  onClose: () => void;
}

/** Picks the chat a message is forwarded to. */
export function ForwardDialog({ chats, onPick, onClose }: Props) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
  }, []);
  return (
    <dialog ref={ref} className={styles.dialog} aria-label={ru.messenger.forwardTitle} onClose={onClose}>
      <header className={styles.header}>
        <h2 className={styles.title}>{ru.messenger.forwardTitle}</h2>
        <button type="button" className={styles.close} onClick={onClose} aria-label={ru.messenger.close}>
          ✕
        </button>
      </header>
      <ul className={styles.list}>
        {chats
          .filter((chat) => chat.type === 'personal')
          .map((chat) => (
            <li key={chatKey(chat)}>
              <button type="button" className={styles.option} onClick={() => onPick(chat)}>
                <Avatar name={chat.username} url={chat.avatar_thumbnail_url ?? chat.avatar_url} size={36} />
                <span>{chat.username}</span>
              </button>
            </li>
          ))}
      </ul>
    </dialog>
  );
}
