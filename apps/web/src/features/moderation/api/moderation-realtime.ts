import type { ModerationNotice } from '@kadr/contract';
import type { QueryClient } from '@tanstack/react-query';
import type { KadrSocket } from '../../../shared/realtime/socket.ts';
import { useNoticeUi } from '../report-store.ts';
import { moderationKeys } from './moderation-keys.ts';

/** A reporter's notice shows at once; a watching moderator's queue refetches when it changes. */
export function attachModerationRealtime(socket: KadrSocket, queryClient: QueryClient) {
  const onNotice = (notice: ModerationNotice) => {
    useNoticeUi.getState().show(notice);
    void queryClient.invalidateQueries({ queryKey: moderationKeys.notices() });
  };
  const onQueue = () => void queryClient.invalidateQueries({ queryKey: [...moderationKeys.all, 'queue'] });
  socket.on('moderation-notice', onNotice);
  socket.on('moderation-queue-changed', onQueue);
  return () => {
    socket.off('moderation-notice', onNotice);
    socket.off('moderation-queue-changed', onQueue);
  };
}
