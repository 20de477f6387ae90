import { useCallback, useRef } from 'react';
import { StorageKeys } from '../../../shared/storage/keys.ts';
import { local } from '../../../shared/storage/local.ts';
import { useSetting, useUpdateSettings } from '../../settings/api/settings-queries.ts';

/**
 * Reduced unread badges (a dot instead of the count, in the chat list and on the navigation entry): the
 * server-stored chat setting. Until the settings load, this device's copy of it paints.
 */
export function useReducedBadges(signedIn = true): boolean {
  const localCopy = local.get(StorageKeys.messengerHideUnreadBadges) === 'true';
  return useSetting((s) => s.chat.reduced_badges, localCopy, signedIn);
}

/** The messenger menu's toggle: writes the server setting (optimistically, rolled back on a refusal). */
export function useToggleReducedBadges(): () => void {
  const reduced = useReducedBadges();
  const current = useRef(reduced);
  current.current = reduced;
  const { mutate } = useUpdateSettings();
  return useCallback(() => mutate({ chat: { reduced_badges: !current.current } }), [mutate]);
}
