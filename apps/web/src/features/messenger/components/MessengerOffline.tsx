import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useEffect } from 'react';
import { useCurrentUser } from '../../auth/auth-store.ts';
import { keepMessengerOffline } from '../api/offline-cache.ts';
import { useDrafts } from '../store/drafts.ts';

/**
 * Around every route: for the signed-in person, the messenger's chats, recent messages and drafts are
 * kept on the device and put back at start, so a reload without a network shows them (as Telegram).
 */
export function MessengerOffline({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const userId = useCurrentUser()?.id;
  useEffect(() => {
    if (userId === undefined) return;
    void useDrafts.getState().load(userId);
    return keepMessengerOffline(queryClient, userId);
  }, [queryClient, userId]);
  return children;
}
