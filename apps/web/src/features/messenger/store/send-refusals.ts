import { create } from 'zustand';

/**
 * Why the server refused the last message to a peer (403 with a Russian reason: the peer accepts
 * messages only from people they follow, a block), shown in that chat until a send succeeds.
 */
interface SendRefusals {
  byPeer: Record<number, string>;
  set(peerId: number, reason: string | null): void;
}

export const useSendRefusals = create<SendRefusals>((set) => ({
  byPeer: {},
  set: (peerId, reason) =>
    set((s) => {
      const byPeer = { ...s.byPeer };
      if (reason === null) delete byPeer[peerId];
      else byPeer[peerId] = reason;
      return { byPeer };
    }),
}));
