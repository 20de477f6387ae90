import type { ChatListItem, ChatRef, Me, MessageFile } from '@kadr/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { PopupMenuItem } from '../../../shared/ui/PopupMenu.tsx';
import { openReport } from '../../moderation/feature.ts';
import { writeDeletedMessage } from '../api/cache-writes.ts';
import { chatRefOf } from '../api/chats-cache.ts';
import {
  useDeleteMessage,
  useEditMessage,
  useForwardMessage,
  usePinMessage,
} from '../api/messenger-queries.ts';
import { chatStrings } from '../components/strings.ts';
import { canEdit, type DisplayMessage } from '../lib/message-status.ts';
import { useMessengerUi } from '../store/messenger-ui.ts';
import { useReactionPicker } from '../store/reaction-picker.ts';
import { messengerStrings } from '../strings.ts';
import { useOutbox } from './use-outbox.ts';

/** Spec §9: the copied notice stays 2 s. */
export const COPIED_NOTICE_MS = 2000;

/** A delete for everyone waits for its confirmation. */
export interface PendingDelete {
  id: number;
  /** Someone else's message, removed by a group admin or the channel's owner. */
  others: boolean;
}

/**
 * What the message context menu offers and does (copy, edit, forward, report, delete for me / everyone).
 * `moderator`: the reader may delete others' messages for everyone (a group's owner or admin, a channel's
 * owner), as the server allows.
 */
export function useMessageActions(chat: ChatListItem, me: Me, options: { moderator?: boolean } = {}) {
  const ref = chatRefOf(chat);
  const queryClient = useQueryClient();
  const outbox = useOutbox();
  const setEditing = useMessengerUi((s) => s.setEditing);
  const edit = useEditMessage(ref, me.id);
  const remove = useDeleteMessage(ref, me.id);
  const forward = useForwardMessage(me.id);
  const pin = usePinMessage();
  const [copied, setCopied] = useState(false);
  const [forwarding, setForwarding] = useState<DisplayMessage | null>(null);
  const [viewing, setViewing] = useState<MessageFile | null>(null);
  const [confirmDelete, setConfirmDelete] = useState<PendingDelete | null>(null);

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
    if (item.message.message_type !== 'service')
      items.push({ id: 'forward', label: messengerStrings.forward, onSelect: () => setForwarding(item) });
    // Pinning: either side of a personal chat, a room's admins (as the server decides).
    const pinnable = item.message.message_type === 'text' || item.message.message_type === 'media';
    if (pinnable && (chat.type === 'personal' || options.moderator)) {
      const isPinned = chat.pinned_message?.id === item.message.id;
      items.push({
        id: isPinned ? 'unpin-message' : 'pin-message',
        label: isPinned ? chatStrings.unpinMessage : chatStrings.pinMessage,
        onSelect: () => pin.mutate({ messageId: item.message.id, on: !isPinned }),
      });
    }
    // Someone else's message, to the moderators; the server then hides it from the reporter, as here.
    const reportable = item.message.message_type !== 'service' && item.message.message_type !== 'call';
    if (!own && !chat.is_favorites && reportable) {
      const id = item.message.id;
      items.push({
        id: 'report',
        label: messengerStrings.report,
        onSelect: () =>
          openReport({
            kind: 'message',
            targetId: id,
            onReported: () => writeDeletedMessage(queryClient, ref, id, me.id),
          }),
      });
    }
    items.push({
      id: 'delete-me',
      label: messengerStrings.deleteForMe,
      danger: true,
      onSelect: () => remove.mutate({ id: item.message.id, scope: 'me' }),
    });
    const service = item.message.message_type === 'service';
    if (!chat.is_favorites && !service && (own || options.moderator)) {
      items.push({
        id: 'delete-everyone',
        label: messengerStrings.deleteForEveryone,
        danger: true,
        // Irreversible for every member: asked first (the shared confirmation sheet).
        onSelect: () => setConfirmDelete({ id: item.message.id, others: !own }),
      });
    }
    return items;
  };

  return {
    menuItems,
    pin: (messageId: number, on: boolean) => pin.mutate({ messageId, on }),
    confirmDelete,
    cancelDelete: () => setConfirmDelete(null),
    deleteForEveryone: (id: number) => remove.mutate({ id, scope: 'everyone' }),
    copied,
    forwarding,
    setForwarding,
    forwardTo: (target: ChatRef) => {
      if (forwarding) forward.mutate({ message: forwarding.message, targets: [target] });
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
