import type { QueryClient } from '@tanstack/react-query';
import { isApiError, NETWORK_ERROR_CODE } from '../../../shared/api/client.ts';
import { StorageKeys } from '../../../shared/storage/keys.ts';
import { useMessengerUi } from '../store/messenger-ui.ts';
import { entryBody, Outbox, type OutboxEntry, type SendOutcome } from '../store/outbox.ts';
import { personalRef, writeMessage } from './cache-writes.ts';
import { messengerApi } from './messenger-api.ts';

/** Network trouble and server hiccups are retried later; a refusal (4xx) marks the message failed. */
export function sendOutcomeOf(error: unknown): SendOutcome {
  if (!isApiError(error)) return 'retry-later';
  if (error.code === NETWORK_ERROR_CODE || error.status === 0 || error.status >= 500) return 'retry-later';
  if (error.status === 408 || error.status === 429) return 'retry-later';
  return 'failed';
}

async function sendEntry(queryClient: QueryClient, entry: OutboxEntry): Promise<SendOutcome> {
  if (typeof navigator !== 'undefined' && navigator.onLine === false) return 'retry-later';
  try {
    const { message } = await messengerApi.send(entryBody(entry));
    writeMessage(
      queryClient,
      personalRef(entry.other_user_id, entry.owner_id),
      { ...message, temp_id: entry.temp_id },
      entry.owner_id,
      useMessengerUi.getState().openPeerId,
    );
    return 'sent';
  } catch (error) {
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
  return outbox;
}
