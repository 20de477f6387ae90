import type { QueryClient } from '@tanstack/react-query';
import { isApiError, NETWORK_ERROR_CODE } from '../../../shared/api/client.ts';
import { refetchAtConnect } from '../../../shared/realtime/refetch-missed.ts';
import { useRealtime } from '../../../shared/realtime/socket.ts';
import { StorageKeys } from '../../../shared/storage/keys.ts';
import { onPrivateDataCleared } from '../../../shared/storage/private-memory.ts';
import { useMessengerUi } from '../store/messenger-ui.ts';
import { entryBody, Outbox, type OutboxEntry, type SendOutcome } from '../store/outbox.ts';
import { useSendRefusals } from '../store/send-refusals.ts';
import { peerIdOf, personalRef, writeMessage } from './cache-writes.ts';
import { messengerKeys } from './messenger-keys.ts';
import { sendMessage } from './socket-send.ts';

/**
 * Network trouble, server hiccups and rate limits are retried later by themselves. A refusal (4xx) marks
 * the message failed with the server's reason; only a conflict that time resolves (a file still being
 * processed) may be retried — sending the same text to the same chat again cannot change any other answer.
 */
export function sendOutcomeOf(error: unknown): SendOutcome {
  if (!isApiError(error)) return 'retry-later';
  if (error.code === NETWORK_ERROR_CODE || error.status === 0 || error.status >= 500) return 'retry-later';
  if (error.status === 408 || error.status === 429) return 'retry-later';
  return { failed: true, error: error.message, retryable: error.status === 409 };
}

async function sendEntry(queryClient: QueryClient, entry: OutboxEntry): Promise<SendOutcome> {
  if (typeof navigator !== 'undefined' && navigator.onLine === false) return 'retry-later';
  try {
    const { message } = await sendMessage(entryBody(entry));
    const ref = entry.room
      ? { type: entry.room.kind, user_id: entry.room.id, is_favorites: false }
      : personalRef(entry.other_user_id, entry.owner_id);
    writeMessage(
      queryClient,
      ref,
      { ...message, temp_id: entry.temp_id },
      entry.owner_id,
      useMessengerUi.getState().openPeerId,
    );
    // Sent over HTTP while the socket is away (a reload or a reconnection backoff): its receipts may come
    // before the socket does, so the socket's connection brings them in.
    if (!useRealtime.getState().connected) {
      refetchAtConnect(queryClient, messengerKeys.conversation(peerIdOf(ref, entry.owner_id)));
      refetchAtConnect(queryClient, messengerKeys.chats());
    }
    useSendRefusals.getState().set(entry.other_user_id, null);
    return 'sent';
  } catch (error) {
    // A privacy refusal says why (settings enforced on the server); shown in that chat.
    if (isApiError(error) && error.status === 403)
      useSendRefusals.getState().set(entry.other_user_id, error.message);
    return sendOutcomeOf(error);
  }
}

let instance: { outbox: Outbox; queryClient: QueryClient } | null = null;

/** The app's one outbox, persisted in localStorage and bound to the query cache it writes into. */
export function getOutbox(queryClient: QueryClient): Outbox {
  if (instance?.queryClient === queryClient) return instance.outbox;
  const outbox = new Outbox({
    storage: localStorage,
    key: StorageKeys.messengerOutbox,
    send: (entry) => sendEntry(queryClient, entry),
  });
  instance = { outbox, queryClient };
  // Unsent text is the person's: it goes with everything private on sign-out.
  onPrivateDataCleared(() => outbox.forget());
  return outbox;
}
