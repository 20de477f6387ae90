import type { ChatListItem, Me, MessageFile } from '@kadr/contract';
import { useEffect, useState } from 'react';
import type { PopupMenuItem } from '../../../shared/ui/PopupMenu.tsx';
import { chatRefOf } from '../api/chats-cache.ts';
import { useDeleteMessage, useEditMessage, useForwardMessage } from '../api/messenger-queries.ts';
import { canEdit, type DisplayMessage } from '../lib/message-status.ts';
import { useMessengerUi } from '../store/messenger-ui.ts';
import { useReactionPicker } from '../store/reaction-picker.ts';
import { messengerStrings } from '../strings.ts';
import { useOutbox } from './use-outbox.ts';

/** Spec §9: the copied notice stays 2 s. */
export const COPIED_NOTICE_MS = 2000;

/** What the message context menu offers and does (copy, edit, forward, delete for me / everyone). */
export function useMessageActions(chat: ChatListItem, me: Me) {
  const ref = chatRefOf(chat);
  const outbox = useOutbox();
  const setEditing = useMessengerUi((s) => s.setEditing);
  const edit = useEditMessage(ref, me.id);
  const remove = useDeleteMessage(ref, me.id);
  const forward = useForwardMessage(me.id);
  const [copied, setCopied] = useState(false);
  const [forwarding, setForwarding] = useState<DisplayMessage | null>(null);
  const [viewing, setViewing] = useState<MessageFile | null>(null);

  useEffect(() => {
    if (!copied) return;
    const timer = window.setTimeout(() => setCopied(false), COPIED_NOTICE_MS);
    return () => window.clearTimeout(timer);
  }, [copied]);

  const menuItems = (item: DisplayMessage): PopupMenuItem[] => {
    const own = item.message.sender_id === me.id;
    const items: PopupMenuItem[] = [
      {
        id: 'copy',
        label: messengerStrings.copy,
        onSelect: () => {
          void navigator.clipboard?.writeText(item.message.content).catch(() => undefined);
          setCopied(true);
        },
      },
    ];
    if (item.tempId !== null) {
      const tempId = item.tempId;
      items.push({
        id: 'delete-me',
        label: messengerStrings.deleteForMe,
        danger: true,
        onSelect: () => outbox.discard(tempId),
      });
      return items;
    }
    if (canEdit(item, me.id)) {
      items.push({
        id: 'edit',
        label: messengerStrings.edit,
        onSelect: () => setEditing({ id: item.message.id, content: item.message.content }),
      });
    }
    items.push({
      id: 'react',
      label: messengerStrings.react,
      onSelect: () => {
        const box = document.getElementById(`message-${item.message.id}`)?.getBoundingClientRect();
        useReactionPicker.getState().show(item.message.id, {
          x: box ? box.left + 12 : 16,
          y: box ? box.bottom : window.innerHeight / 2,
        });
      },
    });
    items.push({ id: 'forward', label: messengerStrings.forward, onSelect: () => setForwarding(item) });
    items.push({
      id: 'delete-me',
      label: messengerStrings.deleteForMe,
      danger: true,
      onSelect: () => remove.mutate({ id: item.message.id, scope: 'me' }),
    });
    if (own && !chat.is_favorites) {
      items.push({
        id: 'delete-everyone',
        label: messengerStrings.deleteForEveryone,
        danger: true,
        onSelect: () => remove.mutate({ id: item.message.id, scope: 'everyone' }),
      });
    }
    return items;
  };

  return {
    menuItems,
    copied,
    forwarding,
    setForwarding,
    forwardTo: (target: ChatListItem) => {
      if (forwarding) forward.mutate({ message: forwarding.message, targets: [chatRefOf(target)] });
      setForwarding(null);
    },
    forwarded: forward.isSuccess,
    viewing,
    setViewing,
    saveEdit: (id: number, content: string) => {
      edit.mutate({ id, content });
      setEditing(null);
    },
  };
}
