import type { QueryClient } from '@tanstack/react-query';
import { refetchMissed, refetchOnMissed } from '../../../shared/realtime/refetch-missed.ts';
import type { KadrSocket } from '../../../shared/realtime/socket.ts';
import { useMessengerUi } from '../store/messenger-ui.ts';
import { useTypingStore } from '../store/typing-store.ts';
import {
  peerIdOf,
  writeChatDeleted,
  writeDeletedMessage,
  writeEditedMessage,
  writeMessage,
  writePin,
  writePinnedMessage,
  writeReceipt,
  writeUnreadCleared,
} from './cache-writes.ts';
import { showMessageBanner } from './message-banner.ts';
import { soundIncomingMessage } from './message-sounds.ts';
import { messengerKeys } from './messenger-keys.ts';
import { getOutbox } from './outbox-instance.ts';
import { writeReactions } from './reactions.ts';

/** The messenger's socket events, all written into the chats' and conversations' queries. */
const CHAT_EVENTS = [
  'new-message',
  'message-edited',
  'message-deleted',
  'message-delivered',
  'messages-read',
  'chat-updated',
  'message-reactions',
  'message-pinned',
  'user-suspension-changed',
  'typing',
] as const;

/**
 * Writes the messenger's socket events into the query cache (spec §7.6) for the whole app, so
 * receipts and unread counts stay right on every screen. Returns a detach function.
 */
export function attachMessengerRealtime(
  socket: KadrSocket,
  queryClient: QueryClient,
  ownId: () => number | null,
): () => void {
  const outbox = getOutbox(queryClient);

  socket.on('new-message', ({ chat, message, ack }) => {
    const me = ownId();
    if (me === null) return;
    const openPeerId = useMessengerUi.getState().openPeerId;
    writeMessage(queryClient, chat, message, me, openPeerId);
    if (message.temp_id) outbox.confirm(message.temp_id);
    if (message.sender_id !== me) {
      // This device received it: the sender's tick turns into "delivered". In a group or channel a few
      // members are asked (one receiver is enough), so a message to thousands is not thousands of acks.
      if (chat.type === 'personal' || ack) socket.emit('message-delivered', { message_ids: [message.id] });
      useTypingStore.getState().setTyping(message.sender_id, false);
      void soundIncomingMessage(queryClient, { chat, message, ownId: me, openPeerId });
      void showMessageBanner(queryClient, { chat, message, ownId: me, openPeerId });
    }
  });
  socket.on('message-edited', ({ chat, message }) => {
    const me = ownId();
    if (me !== null) writeEditedMessage(queryClient, chat, message, me);
  });
  socket.on('message-reactions', ({ message_id, reactions }) => {
    writeReactions(queryClient, message_id, reactions);
  });
  socket.on('message-deleted', ({ chat, message_id }) => {
    const me = ownId();
    if (me !== null) writeDeletedMessage(queryClient, chat, message_id, me);
  });
  socket.on('message-delivered', ({ chat, up_to_message_id }) => {
    const me = ownId();
    if (me !== null) writeReceipt(queryClient, chat, up_to_message_id, me, false);
  });
  socket.on('messages-read', ({ chat, reader_id, up_to_message_id }) => {
    const me = ownId();
    if (me === null) return;
    if (reader_id === me) writeUnreadCleared(queryClient, chat);
    else writeReceipt(queryClient, chat, up_to_message_id, me, true);
  });
  socket.on('chat-updated', ({ chat, change, pin_order }) => {
    const me = ownId();
    if (me === null) return;
    if (change === 'deleted') {
      writeChatDeleted(queryClient, chat, me);
      return;
    }
    writePin(queryClient, chat, change === 'pinned' ? pin_order : null);
  });
  socket.on('message-pinned', ({ chat, pinned_message }) => {
    writePinnedMessage(queryClient, chat, pinned_message);
  });
  socket.on('user-suspension-changed', (event) => {
    void import('./suspension-writes.ts').then((m) => m.writeSuspensionChanged(queryClient, event));
  });
  socket.on('typing', (event) => {
    if (event.type !== 'typing') return;
    useTypingStore.getState().setTyping(event.sender_id, event.data.is_typing);
  });
  const onConnect = () => {
    // Events may have been missed while disconnected (not by what the page has just loaded).
    void refetchMissed(queryClient, socket, messengerKeys.chats());
    void refetchMissed(queryClient, socket, messengerKeys.conversations());
    const me = ownId();
    if (me !== null) void outbox.flush(me);
  };
  socket.on('connect', onConnect);
  // What changed the chats before the first connection (typing is of the moment: never worth a refetch).
  const changers = CHAT_EVENTS.filter((event) => event !== 'typing');
  const stopMissed = refetchOnMissed(socket, queryClient, [
    [messengerKeys.chats(), changers],
    [messengerKeys.conversations(), changers],
  ]);

  return () => {
    for (const event of CHAT_EVENTS) socket.off(event);
    socket.off('connect', onConnect);
    stopMissed();
  };
}

export { peerIdOf };
