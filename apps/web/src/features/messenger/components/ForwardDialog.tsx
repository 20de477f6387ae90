import type { ChatListItem } from '@kadr/contract';
import { Avatar } from '../../../shared/ui/Avatar.tsx';
import { Sheet } from '../../../shared/ui/Sheet.tsx';
import { chatKey } from '../lib/chat-order.ts';
import { messengerStrings } from '../strings.ts';
import styles from './Dialog.module.css';

interface Props {
  chats: readonly ChatListItem[];
  onPick: (chat: ChatListItem) => void;
  onClose: () => void;
}

/** Picks the chat a message is forwarded to, on the shared modal sheet (focus trapped and returned). */
export function ForwardDialog({ chats, onPick, onClose }: Props) {
  return (
    <Sheet title={messengerStrings.forwardTitle} onClose={onClose}>
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
    </Sheet>
  );
}
