import type {
  GroupVoiceEvent,
  GroupVoiceParticipantEvent,
  VoiceHandBody,
  VoiceParticipant,
  VoiceSession,
} from '@kadr/contract';
import { voiceEndpoints } from '@kadr/contract/voice/endpoints';
import type { QueryClient } from '@tanstack/react-query';
import { create } from 'zustand';
import { api, errorMessage, isApiError } from '../../shared/api/client.ts';
import type { KadrSocket } from '../../shared/realtime/socket.ts';
import { voiceStrings as t } from './strings.ts';
import type { VoiceMedia } from './voice-media.ts';

/** This device in a group voice chat (spec §4.2): one chat at a time. */
export type VoiceView =
  | { status: 'idle' }
  | { status: 'connecting'; groupId: number; groupName: string }
  | { status: 'connected'; groupId: number; groupName: string; session: VoiceSession };

interface VoiceStore {
  view: VoiceView;
  participants: VoiceParticipant[];
  micEnabled: boolean;
  minimised: boolean;
  /** `user-<id>` identities speaking now. */
  speaking: string[];
  /** `user-<id>` identities whose microphone is muted. */
  mutedIds: string[];
  /** Received audio bytes per remote identity (refreshed every 2 s). */
  inbound: Record<string, number>;
  notice: string | null;
}

const initial: VoiceStore = {
  view: { status: 'idle' },
  participants: [],
  micEnabled: true,
  minimised: false,
  speaking: [],
  mutedIds: [],
  inbound: {},
  notice: null,
};

export const useVoiceStore = create<VoiceStore>(() => initial);
const set = useVoiceStore.setState;
const view = () => useVoiceStore.getState().view;

export const identityOf = (userId: number) => `user-${userId}`;
export const voiceKeys = { session: (groupId: number) => ['voice', 'session', groupId] as const };

export const voiceApi = {
  /** The running session, or null (a 404 means none, spec §8). */
  async session(groupId: number): Promise<VoiceSession | null> {
    try {
      return await api.call(voiceEndpoints.get, { params: { id: groupId } });
    } catch (error) {
      if (isApiError(error) && error.status === 404) return null;
      throw error;
    }
  },
  join: (groupId: number) => api.call(voiceEndpoints.join, { params: { id: groupId } }),
  leave: (groupId: number) => api.call(voiceEndpoints.leave, { params: { id: groupId } }),
  end: (groupId: number) => api.call(voiceEndpoints.end, { params: { id: groupId } }),
  hand: (groupId: number, body: VoiceHandBody) =>
    api.call(voiceEndpoints.hand, { params: { id: groupId }, body }),
};

/** Replaces one participant in the list (a hand raised or lowered); someone not listed is not added. */
function withParticipant(list: VoiceParticipant[], changed: VoiceParticipant): VoiceParticipant[] {
  return list.map((p) => (p.user_id === changed.user_id ? changed : p));
}

let media: VoiceMedia | null = null;
let statsTimer: number | null = null;
let queryClient: QueryClient | null = null;

function refresh(groupId: number) {
  void queryClient?.invalidateQueries({ queryKey: voiceKeys.session(groupId) });
}

async function drop() {
  if (statsTimer !== null) window.clearInterval(statsTimer);
  statsTimer = null;
  const m = media;
  media = null;
  await m?.disconnect().catch(() => undefined);
}

function reset(notice: string | null = null) {
  const current = view();
  void drop();
  set({ ...initial, notice });
  if (current.status !== 'idle') refresh(current.groupId);
}

export const voiceActions = {
  async join(groupId: number, groupName: string) {
    if (view().status !== 'idle') {
      if ('groupId' in view() && (view() as { groupId: number }).groupId === groupId)
        set({ minimised: false });
      return;
    }
    set({ ...initial, view: { status: 'connecting', groupId, groupName } });
    let joined: Awaited<ReturnType<typeof voiceApi.join>>;
    try {
      joined = await voiceApi.join(groupId);
    } catch (error) {
      reset(isApiError(error) ? t.connectError(errorMessage(error)) : t.sessionDataMissing);
      return;
    }
    if (!joined.access_token || !joined.server_url) {
      reset(t.sessionDataMissing);
      return;
    }
    const { server_url, access_token, ...session } = joined;
    set({ participants: session.participants });
    refresh(groupId);
    try {
      const { connectVoiceMedia } = await import('./voice-media.ts');
      const connected = await connectVoiceMedia({
        serverUrl: server_url,
        token: access_token,
        on: {
          speakers: (speaking) => set({ speaking }),
          muted: (identity, muted) =>
            set((s) => ({
              mutedIds: muted
                ? [...s.mutedIds.filter((i) => i !== identity), identity]
                : s.mutedIds.filter((i) => i !== identity),
            })),
          lost: (reason) => {
            void voiceApi.leave(groupId).catch(() => undefined);
            reset(t.connectError(reason || t.connectFailed));
          },
        },
      });
      const current = view();
      if (current.status !== 'connecting' || current.groupId !== groupId) {
        await connected.disconnect();
        return;
      }
      media = connected;
      set({ view: { status: 'connected', groupId, groupName, session } });
      statsTimer = window.setInterval(() => {
        void media
          ?.inbound()
          .then((inbound) => set({ inbound }))
          .catch(() => undefined);
      }, 2000);
    } catch (error) {
      void voiceApi.leave(groupId).catch(() => undefined);
      const reason = error instanceof Error ? error.message : '';
      reset(reason ? t.connectError(reason) : t.connectFailed);
    }
  },

  async leave() {
    const current = view();
    if (current.status === 'idle') return;
    reset();
    await voiceApi.leave(current.groupId).catch(() => undefined);
  },

  async endForAll() {
    const current = view();
    if (current.status !== 'connected') return;
    try {
      await voiceApi.end(current.groupId);
      reset();
    } catch (error) {
      set({ notice: errorMessage(error) });
    }
  },

  /** Raise or lower one's own hand; with `userId`, lower someone else's (the starter or an admin). */
  async setHand(raised: boolean, userId?: number) {
    const current = view();
    if (current.status !== 'connected') return;
    try {
      const changed = await voiceApi.hand(current.groupId, {
        raised,
        ...(userId === undefined ? {} : { user_id: userId }),
      });
      set((s) => ({ participants: withParticipant(s.participants, changed) }));
    } catch (error) {
      set({ notice: errorMessage(error) });
    }
  },

  async toggleMicrophone() {
    const enabled = !useVoiceStore.getState().micEnabled;
    set({ micEnabled: enabled });
    await media?.setMicrophone(enabled).catch((error) => set({ notice: errorMessage(error) }));
  },

  setMinimised(minimised: boolean) {
    set({ minimised });
  },

  dismissNotice() {
    set({ notice: null });
  },
};

/** §7.6: participant changes refresh the list; the end of the chat makes everyone in it leave. */
export function attachVoiceRealtime(socket: KadrSocket, client: QueryClient): () => void {
  queryClient = client;
  const mine = (groupId: number) => {
    const current = view();
    return current.status !== 'idle' && current.groupId === groupId;
  };
  const onJoined = (event: GroupVoiceParticipantEvent) => {
    refresh(event.group_id);
    if (!mine(event.group_id)) return;
    set((s) => ({
      participants: [
        ...s.participants.filter((p) => p.user_id !== event.participant.user_id),
        event.participant,
      ],
    }));
  };
  const onLeft = (event: GroupVoiceParticipantEvent) => {
    refresh(event.group_id);
    if (!mine(event.group_id)) return;
    set((s) => ({ participants: s.participants.filter((p) => p.user_id !== event.participant.user_id) }));
  };
  const onHand = (event: GroupVoiceParticipantEvent) => {
    if (!mine(event.group_id)) return;
    set((s) => ({ participants: withParticipant(s.participants, event.participant) }));
  };
  const onEnded = (event: GroupVoiceEvent) => {
    refresh(event.group_id);
    if (mine(event.group_id)) reset();
  };
  socket.on('group-voice-participant-joined', onJoined);
  socket.on('group-voice-participant-left', onLeft);
  socket.on('group-voice-ended', onEnded);
  socket.on('group-voice-hand-changed', onHand);
  return () => {
    socket.off('group-voice-hand-changed', onHand);
    socket.off('group-voice-participant-joined', onJoined);
    socket.off('group-voice-participant-left', onLeft);
    socket.off('group-voice-ended', onEnded);
  };
}
