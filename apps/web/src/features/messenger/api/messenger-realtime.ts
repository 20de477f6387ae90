import type { QueryClient } from '@tanstack/react-query';
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
  writeReceipt,
  writeUnreadCleared,
} from './cache-writes.ts';
import { soundIncomingMessage } from './message-sounds.ts';
import { messengerKeys } from './messenger-keys.ts';
import { getOutbox } from './outbox-instance.ts';
import { writeReactions } from './reactions.ts';

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
  socket.on('typing', (event) => {
    if (event.type !== 'typing') return;
    useTypingStore.getState().setTyping(event.sender_id, event.data.is_typing);
  });
  const onConnect = () => {
    // Events may have been missed while disconnected.
    void queryClient.invalidateQueries({ queryKey: messengerKeys.chats() });
    void queryClient.invalidateQueries({ queryKey: messengerKeys.conversations() });
    const me = ownId();
    if (me !== null) void outbox.flush(me);
  };
  socket.on('connect', onConnect);

  return () => {
    for (const event of [
      'new-message',
      'message-edited',
      'message-deleted',
      'message-delivered',
      'messages-read',
      'chat-updated',
      'message-reactions',
      'typing',
    ] as const) {
      socket.off(event);
    }
    socket.off('connect', onConnect);
  };
}

export { peerIdOf };
