import type { QueryClient } from '@tanstack/react-query';
import type { KadrSocket } from '../../../shared/realtime/socket.ts';
import { useLiveUi } from '../live-store.ts';
import { patchStream, refreshActive, withGuest, withoutGuest } from './livestream-queries.ts';

/** Socket events into the query cache: the strip, the open stream's count and guests, invitations. */
export function attachLivestreamsRealtime(
  socket: KadrSocket,
  queryClient: QueryClient,
  currentUserId: () => number | null,
) {
  const onStarted = () => void refreshActive(queryClient);
  const onEnded = ({ stream_id }: { stream_id: number }) => {
    void refreshActive(queryClient);
    patchStream(queryClient, stream_id, (s) => ({ ...s, status: 'ended', viewer_count: 0 }));
    useLiveUi.getState().dismiss(stream_id);
  };
  const onViewers = ({ stream_id, viewer_count }: { stream_id: number; viewer_count: number }) =>
    patchStream(queryClient, stream_id, (s) => ({ ...s, viewer_count }));
  const onGuestAdded: Parameters<typeof socket.on<'live-stream-guest-added'>>[1] = ({ stream_id, guest }) => {
    patchStream(queryClient, stream_id, (s) => withGuest(s, guest));
    if (guest.user_id === currentUserId()) useLiveUi.getState().invite(stream_id);
  };
  const onGuestRemoved = ({ stream_id, user_id }: { stream_id: number; user_id: number }) => {
    patchStream(queryClient, stream_id, (s) => withoutGuest(s, user_id));
    if (user_id === currentUserId()) useLiveUi.getState().dismiss(stream_id);
  };
  socket.on('live-stream-started', onStarted);
  socket.on('live-stream-ended', onEnded);
  socket.on('live-stream-viewers', onViewers);
  socket.on('live-stream-guest-added', onGuestAdded);
  socket.on('live-stream-guest-removed', onGuestRemoved);
  return () => {
    socket.off('live-stream-started', onStarted);
    socket.off('live-stream-ended', onEnded);
    socket.off('live-stream-viewers', onViewers);
    socket.off('live-stream-guest-added', onGuestAdded);
    socket.off('live-stream-guest-removed', onGuestRemoved);
  };
}
